"""Held-out round 18, second pass (not counted): "inputs" is built with torch.full(shape, padding_value,
dtype=...) without device=, so for sequences on a GPU the batch lands on the CPU. The text said only "with the
sequences' dtype"; it now says "with the sequences' dtype and device". Breaks that clause."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)\n",
     "    inputs = torch.full((len(seqs), longest, *seqs[0].shape[1:]), padding_value, dtype=seqs[0].dtype)\n"))}
