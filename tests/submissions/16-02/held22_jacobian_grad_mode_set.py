"""Round 22: jacobian learns the output size with grad turned off by the function form,
torch.set_grad_enabled(False), and turns it back on with torch.set_grad_enabled(True): a caller in
torch.no_grad() leaves jacobian with grad mode on (and every later op in that block records a graph). The text:
"you may call f once more to learn the size of its output, leaving grad mode and every other global setting as
it was"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    with torch.no_grad():\n        n_out = f(x).numel()",
    "    torch.set_grad_enabled(False)\n    n_out = f(x).numel()\n    torch.set_grad_enabled(True)"))}
