"""Round 19: jacobian turns grad mode off for its probe call of f with torch.set_grad_enabled(False) and back
on with torch.set_grad_enabled(True) afterwards, instead of restoring what it found: called under
torch.no_grad() (where torch.func's jacfwd and jacrev still work), it returns the right Jacobian but leaves grad
mode on for the caller. The text: "you may call f once more to learn the size of its output, leaving grad mode
and every other global setting as it was"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    with torch.no_grad():\n        n_out = f(x).numel()\n",
    "    torch.set_grad_enabled(False)\n    n_out = f(x).numel()\n    torch.set_grad_enabled(True)\n"))}
