"""Sines in the first half of the columns and cosines in the second (a common variant), where the text asks for
them interleaved."""
from course.grading.class_run.submissions import edited

EXPECT = {"embed": "fail"}
CELLS = {"embed_impl": edited("16-03", "embed_impl",
    ("torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, d_model)",
     "torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1)"))}
