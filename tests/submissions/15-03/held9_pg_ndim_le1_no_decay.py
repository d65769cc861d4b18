"""Held-out round 9: no weight decay for every parameter with at most one dimension (p.dim() <= 1), which
also exempts a 0-dim parameter such as a learned temperature. The text: biases and norm parameters are
the 1-D ones here, "a 0-dim parameter, such as a learned temperature, is neither", so it gets
weight_decay like all other parameters."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited(
    "15-03", "param_groups_impl",
    ('no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
     'no_decay = p.dim() <= 1'))}
