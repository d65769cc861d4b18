"""Held-out round 15: param_groups recognises biases by the suffixes ".bias", "_bias" and the infix ".bias_", all of
which need a dot or an underscore before "bias": a model that is itself a layer (param_groups(nn.LSTM(...)),
param_groups(nn.Linear(...)), or a root module holding a Parameter named `bias`) has top-level names `bias`,
`bias_ih_l0`, `bias_hh_l0`, and those keep weight decay. Exercise 2's text: biases (`bias`, `bias_ih_l0`,
`bias_hh_l0`, `in_proj_bias`) get weight_decay=0.0."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited("15-03", "param_groups_impl", (
    'no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
    'no_decay = name.endswith((".bias", "_bias")) or ".bias_" in name or id(p) in norm_params'))}
