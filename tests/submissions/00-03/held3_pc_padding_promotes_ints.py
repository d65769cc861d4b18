"""Wrong (held-out round 3): pad_collate builds inputs as torch.zeros(..., dtype) + padding_value, so
integer sequences (token ids) padded with the float default 0.0 come back as float32, not their dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited("00-03", "collate_impl", (
    "    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)\n",
    "    inputs = torch.zeros((len(seqs), longest, *seqs[0].shape[1:]), dtype=seqs[0].dtype) + padding_value\n"))}
