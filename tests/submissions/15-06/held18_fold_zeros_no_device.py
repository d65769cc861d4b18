"""Held-out round 18: for a conv without bias, fold_conv_bn builds the zero bias with torch.zeros(out_channels,
dtype=...) but no device=, so on any device but the CPU the arithmetic mixes devices; the text asks for
"parameters ... on the same device as conv's weight" and "always a bias" (take b_c = 0 when the conv has no bias)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("""torch.zeros(conv.out_channels, dtype=w.dtype,
                                                                       device=w.device)""",
     "torch.zeros(conv.out_channels, dtype=w.dtype)"))}
