"""Round 16 (written after phase 1, for the class "global state left changed"): export_dynamic_batch turns gradients
off with torch.set_grad_enabled(False) ("an export needs no autograd graph") and never turns them back on: the
program is right, but the caller's process is left in no-grad mode (the README: no function may leave a
process-wide setting changed after it returns)."""
from course.grading.class_run.submissions import edited

EXPECT = {"export_dynamic": "fail"}
CELLS = {"export_dynamic_impl": edited("15-05", "export_dynamic_impl", (
    "    batch = Dim(\"batch\", min=min_batch, max=max_batch)",
    "    torch.set_grad_enabled(False)\n    batch = Dim(\"batch\", min=min_batch, max=max_batch)"))}
