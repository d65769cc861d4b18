"""Known-wrong pad_collate (gap round): builds inputs with torch.full in the default dtype, so float64
or integer sequences come back as float32 ("with the sequences' dtype")."""
from course.grading.class_run.submissions import edited

CELLS = {"collate_impl": edited("00-03", "collate_impl",
    ("    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)",
     "    inputs = torch.full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)"))}
EXPECT = {"collate": "fail"}
