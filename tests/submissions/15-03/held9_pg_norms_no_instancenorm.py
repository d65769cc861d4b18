"""Held-out round 9: the student lists the norm classes by hand (BatchNorm1d/2d/3d, LayerNorm, GroupNorm)
and forgets InstanceNorm*, so an affine InstanceNorm's weight gets weight decay. The text names
InstanceNorm* among the normalisation layers whose parameters get weight_decay=0.0."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited(
    "15-03", "param_groups_impl",
    ("NORM_LAYERS = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)",
     "NORM_LAYERS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm, nn.GroupNorm)"))}
