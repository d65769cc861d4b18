"""Wrong (round 21's contract walk, not counted): "`labels`: int64 tensor `(B,)`" holding the labels, "A label is
a Python `int` or a 0-d tensor of any integer dtype". This version gathers the labels through a float64 tensor
(`torch.tensor([float(y) ...]).long()`): a label past 2**53 (a hashed id, say) comes back rounded."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)\n",
     "    labels = torch.tensor([float(y) for _, y in batch], dtype=torch.float64).long()\n"))}
