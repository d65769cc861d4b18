"""Held-out round 22: the second moment is updated as written in the text, v * b2 + (1 - b2) * g ** 2, with g ** 2
computed first. For a float16 parameter (moments kept in p's dtype, as the text asks) a gradient of 256 or more
squares to inf, v becomes inf and that weight stops moving, while torch.optim.AdamW (addcmul_, computed in
float32 and rounded once) keeps v finite and moves it by about lr. Breaks "every parameter equals what
torch.optim.AdamW with the same arguments gives from the same start and the same gradients"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                v.mul_(b2).addcmul_(g, g, value=1 - b2)\n",
     "                v.mul_(b2).add_((1 - b2) * g ** 2)\n"))}
