"""Round 16: SiLU's forward returns F.silu(x) ("do not call F.silu or nn.SiLU inside it"); backward and jvp are
the hand-written formulas, so every value and derivative is right."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        return x * torch.sigmoid(x)\n",
    "        return F.silu(x)\n"))}
