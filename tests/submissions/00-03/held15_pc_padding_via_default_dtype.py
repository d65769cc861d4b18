"""Fills the padding with torch.full(shape, padding_value) (default dtype, float32) and converts it to the
sequences' dtype afterwards: for float64 sequences a padding_value such as 0.1 or 1e300 is rounded through
float32 (0.10000000149..., inf) instead of being the padding_value."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited("00-03", "collate_impl", (
    """    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)""",
    """    inputs = torch.full((len(seqs), longest, *seqs[0].shape[1:]), padding_value).to(seqs[0].dtype)"""))}
