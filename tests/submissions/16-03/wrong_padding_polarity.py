"""key_padding_mask read with the boolean convention of exercise 1 (True = keep): the padding keys are the only
ones attended to."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "            m = key_padding_mask[:, None, None, :]\n"
    "            bias = bias.masked_fill(m, float(\"-inf\"))",
    "            m = key_padding_mask[:, None, None, :]\n"
    "            bias = bias.masked_fill(~m if m.dtype == torch.bool else m, float(\"-inf\"))"))}
