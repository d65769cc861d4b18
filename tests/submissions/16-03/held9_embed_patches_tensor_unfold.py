"""Held-out round 9, written as wrong and judged defensible: patch_embed cuts the patches with Tensor.unfold (a
strided view, no convolution), which drops the rows and columns past the last whole patch but raises when the image
is smaller than one patch. P = (H // ph) * (W // pw) would be 0 there, but the text also says the result equals
F.conv2d(images, weight, bias, stride=(ph, pw)), which raises for such an image too, and the kept
unusual_correct.py cuts its patches the same way; so it is kept as a correct example."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    x = images[:, :, :gh * ph, :gw * pw].reshape(n, c, gh, ph, gw, pw)\n"
     "    patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, c * ph * pw)\n",
     "    x = images.unfold(2, ph, ph).unfold(3, pw, pw)  # (N, C, gh, gw, ph, pw)\n"
     "    patches = x.permute(0, 2, 3, 1, 4, 5).reshape(n, gh * gw, c * ph * pw)\n"))}
