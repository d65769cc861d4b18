"""Held-out round 24: fold_conv_bn reads conv's weight with conv.weight.detach_() (the in-place detach, mistaken
for .detach()), which turns requires_grad off on the caller's conv: the conv is frozen, and training it afterwards
(fine-tuning the unfused model, as the notebook does) no longer updates its weight. It breaks "and it must not
modify `conv` or `bn`" for every conv whose weight requires grad (the default); the folded values are right."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    w = conv.weight.detach()\n", "    w = conv.weight.detach_()\n"))}
