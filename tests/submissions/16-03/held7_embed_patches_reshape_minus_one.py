"""Wrong: "patch_embed(images, weight, bias=None) takes images (N, C, H, W) ... It equals F.conv2d(images,
weight, bias, stride=(ph, pw)).flatten(2).transpose(1, 2)". This version infers the number of patches with
reshape(n, -1, ...): an empty batch (N = 0, which F.conv2d turns into an empty (0, P, E) result) raises
instead, because -1 is ambiguous for a tensor with no elements."""
from course.grading.class_run.submissions import edited

EXPECT = {"embed": "fail"}
CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("reshape(n, gh * gw, c * ph * pw)", "reshape(n, -1, c * ph * pw)"))}
