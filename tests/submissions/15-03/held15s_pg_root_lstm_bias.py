"""Held-out round 15 (strengthening): param_groups recognises biases as the plain name "bias", any name ending in
".bias" or "_bias", or containing ".bias_" (a module's LSTM biases): an nn.LSTM handed over as the model itself has
top-level names bias_ih_l0, bias_hh_l0, ... with no "." before them, and those keep weight decay. Exercise 2's text:
biases (`bias`, `bias_ih_l0`, `bias_hh_l0`, `in_proj_bias`) get weight_decay=0.0."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited("15-03", "param_groups_impl", (
    'no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
    'no_decay = name == "bias" or name.endswith((".bias", "_bias")) or ".bias_" in name or id(p) in norm_params'))}
