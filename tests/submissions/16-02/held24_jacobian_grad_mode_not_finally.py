"""Round 24: jacobian turns grad mode off by hand for the size probe and back to what it was afterwards, but
not in a `finally`: when f raises during the probe (a bad input, an interrupt), the exception reaches the caller
with grad mode left off, and every later computation of the caller silently builds no graph. The text: "you may
call f once more to learn the size of its output, leaving grad mode and every other global setting as it was";
wrong input: an f that raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    with torch.no_grad():\n        n_out = f(x).numel()\n",
    "    was = torch.is_grad_enabled()\n    torch.set_grad_enabled(False)\n    n_out = f(x).numel()\n"
    "    torch.set_grad_enabled(was)\n"))}
