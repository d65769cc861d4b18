"""Round 12 (held out): the Nesterov check tests dampening > 0 instead of dampening != 0, so
MomentumSGD(..., momentum=0.9, dampening=-0.1, nesterov=True) is accepted. The text: raise ValueError "for
nesterov=True unless momentum > 0 and dampening == 0"."""
from course.grading.class_run.submissions import edited

EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl", (
    "if nesterov and (momentum <= 0 or dampening != 0):", "if nesterov and (momentum <= 0 or dampening > 0):"))}
