"""backward computes its formula under torch.no_grad(): first derivatives are right, second derivatives
through SiLU are lost."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))",
    "        with torch.no_grad():\n            s = torch.sigmoid(x)\n            return g * (s + x * s * (1 - s))"))}
