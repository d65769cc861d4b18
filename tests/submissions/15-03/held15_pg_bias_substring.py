"""Held-out round 15: param_groups decides "is a bias" by `"bias" in name` on the whole qualified name, so the
weight of a Linear whose module is called e.g. `bias_proj` or `debias` gets weight_decay 0. Exercise 2's text:
biases are `bias`, `bias_ih_l0`, `bias_hh_l0`, `in_proj_bias`; "all other parameters get weight_decay"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited("15-03", "param_groups_impl", (
    'no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
    'no_decay = "bias" in name or id(p) in norm_params'))}
