"""Gap round (issue 39), "devices": the additive mask is created without device=, so the layer raises for inputs
on a GPU (or the meta stand-in)."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "bias = torch.zeros(n, h, L, S, dtype=q.dtype, device=q.device)",
    "bias = torch.zeros(n, h, L, S, dtype=q.dtype)"))}
