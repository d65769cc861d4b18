"""Held-out round 10: the mask is read off the padded tensor (an entry is real where it differs from
padding_value), so a real entry that equals padding_value (token id 0 with the default padding) is marked as
padding. Breaks "mask ... True exactly at the real (not padded) positions"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    mask = torch.arange(longest)[None, :] < lengths[:, None]\n",
     "    mask = inputs != padding_value\n    while mask.dim() > 2:\n        mask = mask.any(-1)\n"))}
