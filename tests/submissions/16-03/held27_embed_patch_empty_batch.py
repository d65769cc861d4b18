"""Known-wrong patch_embed (round 27): it flattens the patches with reshape(n, gh * gw, -1), which PyTorch
refuses for an empty batch (N = 0: "the unspecified dimension size -1 can be any value"). Every non-empty
batch is right. The text: patch_embed "takes images (N, C, H, W)" and "equals F.conv2d(images, weight, bias,
stride=(ph, pw)).flatten(2).transpose(1, 2)", which gives (0, P, E) for N = 0; only the image size is
restricted ("an image holds at least one whole patch") (goes wrong on images of shape (0, C, H, W))."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, c * ph * pw)",
     "    patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, -1)"))}
EXPECT = {"embed": "fail"}
