"""Held-out round 9: class_balanced_weights indexes the class counts with the targets as given; a uint8
targets tensor then acts as a boolean mask (PyTorch's legacy rule) and the weights come out wrong or
raise. The text: "targets is a 1-D integer tensor or a list of ints" (uint8 is an integer dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "fail", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    targets = torch.as_tensor(targets, dtype=torch.int64)\n    counts",
     "    targets = torch.as_tensor(targets)\n    counts"))}
