"""Held-out round 12 (issue 39), written as a wrong answer and found accepted by the text: param_groups
exempts exactly the 1-D parameters from weight decay (p.ndim == 1). Section 2 says "In the models used
here those are exactly the 1-D parameters (a 0-dim parameter, such as a learned temperature, is neither)",
and the hidden models keep that promise (no PReLU or other 1-D weight; unusual_correct.py relies on it), so
this answer must pass: a check with a 1-D non-bias weight would change the contract, not close a gap."""
from course.grading.class_run.submissions import edited

CELLS = {"param_groups_impl": edited("15-03", "param_groups_impl",
                                     ('no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params',
                                      "no_decay = p.ndim == 1"))}
EXPECT = {"param_groups": "pass"}
