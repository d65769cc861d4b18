"""Held-out round 26 (issue 39): param_groups treats the head as "one Linear": inside the head only a
parameter literally named `bias` is exempted from weight decay; everything else in the head decays. The body
follows the full rule. Wrong for a head that holds a normalisation layer or a recurrent/attention layer, e.g.
`head = nn.Sequential(nn.LayerNorm(8), nn.Linear(8, 3))`: `head.0.weight` gets `weight_decay` instead of 0.0.
Contradicts: "biases (...) and the parameters of normalisation layers (`BatchNorm*`, `LayerNorm`, `GroupNorm`,
`InstanceNorm*`) get `weight_decay=0.0`" (nothing in the text excepts the head)."""
from course.grading.class_run.submissions import edited

CELLS = {
    "param_groups_impl": edited(
        "15-03", "param_groups_impl",
        ('no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
         'no_decay = leaf == "bias" if in_head else (\n'
         '            leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params)'),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
