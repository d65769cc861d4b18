"""Round 22: "the exercise is about the derivatives", so SiLU's forward returns F.silu(x); backward, jvp and
setup_context are the reference's. Every value, derivative, dtype and device is right. The text: "do not call
F.silu or nn.SiLU inside it"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        return x * torch.sigmoid(x)", "        return F.silu(x)"))}
