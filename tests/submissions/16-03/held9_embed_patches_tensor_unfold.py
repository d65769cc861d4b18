"""Held-out round 9: patch_embed cuts the patches with Tensor.unfold (a strided view, no convolution), which drops
the rows and columns past the last whole patch but raises when the image is smaller than one patch. The text says
the result is (N, P, E) with P = (H // ph) * (W // pw) patches and that rows and columns past the last whole
patch are dropped: an image smaller than a patch has P = 0 and gives an empty (N, 0, E)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "pass", "embed": "fail", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    x = images[:, :, :gh * ph, :gw * pw].reshape(n, c, gh, ph, gw, pw)\n"
     "    patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, c * ph * pw)\n",
     "    x = images.unfold(2, ph, ph).unfold(3, pw, pw)  # (N, C, gh, gw, ph, pw)\n"
     "    patches = x.permute(0, 2, 3, 1, 4, 5).reshape(n, gh * gw, c * ph * pw)\n"))}
