"""Held-out round 28: builds the labels as an int32 tensor and then converts to int64. Breaks '"labels": an
int64 tensor of shape (B,)' for labels that are Python ints or 0-dim int64 tensors beyond int32's range: goes
wrong on labels [2**40, 3] (torch.tensor raises an overflow RuntimeError instead of returning [2**40, 3])."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    labels = torch.tensor([int(y) for _, y in samples], dtype=torch.int64)\n",
     "    labels = torch.tensor([int(y) for _, y in samples], dtype=torch.int32).long()\n"))}
