"""Accepted (held-out round 8, written as wrong): smooth_clip in the "symmetric" form
sign(x) * limit * tanh(|x| / limit). For every nonzero x it is the same number; only x = -0.0 differs: torch.sign(-0.0)
is +0.0, so it returns +0.0 where limit * tanh(-0.0 / limit) is -0.0. Written against "`smooth_clip(x, limit)`
returns `limit * tanh(x / limit)`", but the text asks for values, and -0.0 == +0.0 as a value; three earlier
writers (blind_correct_expm1_clip, blind2_correct_handmath, blind3_correct_expforms) put the sign back the same
way and were accepted. The sign of a zero is not required, so this answer passes."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    return torch.sign(x) * (limit * torch.tanh(x.abs() / limit))\n"))}
