"""Held-out round 24: pad_collate builds the labels with torch.stack([torch.as_tensor(y) ...]).to(torch.int64).
Breaks "each label is a Python int or a 0-dim integer tensor of any integer dtype" -> "labels: an int64 tensor":
torch.stack promotes the dtypes first, and promotion with uint16/uint32/uint64 is not supported. Goes wrong on
[(seq0, 3), (seq1, torch.tensor(5, dtype=torch.uint16))] (or uint32 with int32): RuntimeError instead of
tensor([3, 5])."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    labels = torch.tensor([int(y) for _, y in samples], dtype=torch.int64)\n",
     "    labels = torch.stack([torch.as_tensor(y) for _, y in samples]).to(torch.int64)\n"))}
