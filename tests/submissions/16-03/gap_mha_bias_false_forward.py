"""Gap round (issue 39), "without the biases when bias=False": the state dict is right, but forward chunks
in_proj_bias without asking whether there is one, so MultiHeadAttention(..., bias=False) raises on every call."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "b_q, b_k, b_v = self.in_proj_bias.chunk(3) if self.in_proj_bias is not None else (None,) * 3",
    "b_q, b_k, b_v = self.in_proj_bias.chunk(3)"))}
