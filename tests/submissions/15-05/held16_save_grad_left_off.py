"""Round 16 (written after phase 1, for the class "global state left changed"): save_exported turns gradients off
with torch.set_grad_enabled(False) before exporting and never turns them back on: the file is right, but the
caller's process is left in no-grad mode (the README: no function may leave a process-wide setting changed after it
returns)."""
from course.grading.class_run.submissions import edited

EXPECT = {"save_load": "fail"}
CELLS = {"save_load_impl": edited("15-05", "save_load_impl", (
    "    batch = Dim(\"batch\", min=1, max=1024)",
    "    torch.set_grad_enabled(False)\n    batch = Dim(\"batch\", min=1, max=1024)"))}
