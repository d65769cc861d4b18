"""Held-out round 27: the signature is ScratchAdamW(params, lr=1e-3, betas=(0.9, 0.999), weight_decay=1e-2,
eps=1e-8): eps and weight_decay swapped. With keywords (or the defaults) it is right; by position, as the
text's signature allows, the fourth argument becomes the weight decay and the fifth eps. Breaks "Write
ScratchAdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2)". Goes wrong on:
ScratchAdamW(params, 0.05, (0.8, 0.99), 1e-6, 0.1) against torch.optim.AdamW(params, 0.05, (0.8, 0.99), 1e-6,
0.1): the weights differ after the first step."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):\n",
     "    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), weight_decay=1e-2, eps=1e-8):\n"))}
