"""Round 19: backward and jvp compute sigmoid "stably" by hand, torch.where(x >= 0, 1 / (1 + exp(-x)),
exp(x) / (1 + exp(x))). Values and first derivatives are right everywhere, and forward mode through the formulas
(jvp of grad) is finite too, because where's tangent takes the chosen branch's tangent; but reverse mode through
them multiplies the unchosen branch's inf / inf derivative by a zero gradient: double backward and grad of jvp
give nan at x = +-1000 where F.silu gives 0. The text: "second derivatives through SiLU (double backward, jvp of
grad, grad of jvp) equal those of F.silu" and "Values and derivatives stay finite for inputs as large as +-1000"."""
from course.grading.class_run.submissions import edited

_SIG = "torch.where(x >= 0, 1 / (1 + torch.exp(-x)), torch.exp(x) / (1 + torch.exp(x)))"
EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))",
    f"        s = {_SIG}\n        return g * (s + x * s * (1 - s))"), (
    "        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))",
    f"        s = {_SIG}\n        return t * (s + x * s * (1 - s))"))}
