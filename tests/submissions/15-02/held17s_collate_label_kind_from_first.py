"""Wrong: "A label is a Python `int` or a 0-d tensor of any integer dtype": each label is one or the other. This
version decides from the first label only: when it is a 0-d tensor the labels are `torch.stack`ed, which raises
for a batch in which a later label is a Python int. (Contract walk, round 17: every check's batch held labels of
one kind.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)\n",
     "    if isinstance(batch[0][1], torch.Tensor):  # a TensorDataset's labels: 0-d tensors\n"
     "        labels = torch.stack([y for _, y in batch]).to(torch.int64)\n"
     "    else:\n"
     "        labels = torch.tensor([y for _, y in batch], dtype=torch.int64)\n"))}
