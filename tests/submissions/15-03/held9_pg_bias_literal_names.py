"""Held-out round 9: biases are recognised by the exact names the text gives as examples (bias, bias_ih_l0,
bias_hh_l0, in_proj_bias), so a second LSTM layer's bias_ih_l1 / bias_hh_l1 and a bidirectional layer's
bias_ih_l0_reverse get weight decay. The text asks for no weight decay on biases, naming these as the
kind of names recurrent and attention layers use."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited(
    "15-03", "param_groups_impl",
    ('no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
     'no_decay = leaf in ("bias", "bias_ih_l0", "bias_hh_l0", "in_proj_bias") or id(p) in norm_params'))}
