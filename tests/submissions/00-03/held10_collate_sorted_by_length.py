"""Held-out round 10: the samples are sorted by length, longest first (as pack_padded_sequence likes them), and
inputs, lengths, mask and labels all follow that order. Breaks "sample i in row i"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    seqs = [s for s, _ in samples]\n",
     "    samples = sorted(samples, key=lambda sy: -sy[0].shape[0])\n    seqs = [s for s, _ in samples]\n"))}
