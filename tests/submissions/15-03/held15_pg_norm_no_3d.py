"""Held-out round 15: the normalisation layers are listed by hand as BatchNorm1d/2d, InstanceNorm1d/2d, LayerNorm and
GroupNorm: a BatchNorm3d or an affine InstanceNorm3d (video, volumes) keeps weight decay on its scale and shift.
Exercise 2's text: "the parameters of normalisation layers (BatchNorm*, LayerNorm, GroupNorm, InstanceNorm*) get
weight_decay=0.0"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited("15-03", "param_groups_impl", (
    "NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)",
    "NORM_LAYERS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.InstanceNorm1d, nn.InstanceNorm2d, nn.LayerNorm, nn.GroupNorm)"))}
