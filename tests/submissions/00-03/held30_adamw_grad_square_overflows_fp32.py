"""Held-out round 30: squares the gradient outside addcmul_ for float32/float64 parameters (only float16 and
bfloat16 go through addcmul_, "because only they can overflow"). Breaks "every parameter equals what
torch.optim.AdamW ... gives from the same start and the same gradients": a float32 parameter with gradient 1e20
(g*g = 1e40 overflows float32, while torch's addcmul_ computes (1 - beta2) * g * g = 1e37) gets v = inf and does
not move (apart from the decay), where torch moves it by about lr. Right for every gradient below 1.8e19."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                v.mul_(b2).addcmul_(g, g, value=1 - b2)\n",
     "                if p.dtype in (torch.float16, torch.bfloat16):\n"
     "                    v.mul_(b2).addcmul_(g, g, value=1 - b2)\n"
     "                else:\n"
     "                    v.mul_(b2).add_(g * g, alpha=1 - b2)\n"))}
