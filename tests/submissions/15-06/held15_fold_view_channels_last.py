"""Held-out round 15: fold_conv_bn scales the weight through w.view(out_channels, -1). A conv in channels_last
memory format (model.to(memory_format=torch.channels_last), the usual inference layout for conv nets) has a weight
whose last three dimensions cannot be merged by a view, so fold_conv_bn (and fuse_conv_bn on such a model) raises,
where torch's fuse_conv_bn_eval folds it. Breaks: "returns a new nn.Conv2d computing bn(conv(x))" (any Conv2d) and
"every Conv2d -> BatchNorm2d pair where fusion is valid has been folded"."""
from course.grading.class_run.submissions import edited

EXPECT = {"fold_conv_bn": "fail", "fuse_conv_bn": "fail"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))",
     "nn.Parameter((w.view(w.size(0), -1) * scale[:, None]).view(w.shape).to(w.dtype))"))}
