"""Held-out round 12 (issue 39): param_groups recognises normalisation layers by their exact class
(type(m) in (BatchNorm1d/2d/3d, LayerNorm, GroupNorm, InstanceNorm1d/2d/3d)) instead of isinstance, so
a subclass of LayerNorm (ConvNeXt's LayerNorm2d pattern) or SyncBatchNorm keeps weight decay on its
scale. Breaks: "the parameters of normalisation layers (BatchNorm*, LayerNorm, GroupNorm, InstanceNorm*)
get weight_decay=0.0" (a LayerNorm subclass is a LayerNorm)."""
from course.grading.class_run.submissions import edited

CELLS = {"param_groups_impl": edited("15-03", "param_groups_impl",
                                     ("if isinstance(m, NORM_LAYERS)",
                                      "if type(m) in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm, "
                                      "nn.GroupNorm, nn.InstanceNorm1d, nn.InstanceNorm2d, nn.InstanceNorm3d)"))}
EXPECT = {"param_groups": "fail"}
