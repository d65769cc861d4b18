"""Held-out round 18: the momentum buffer of a float16 or bfloat16 parameter is kept in float32 (the
mixed-precision habit), so the update adds a float32 direction where torch.optim.SGD adds one rounded to the
parameter's dtype, and the parameters drift from torch's by a few ulps per step. Breaks "every parameter equals
what torch.optim.SGD with the same arguments gives from the same start and the same gradients"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                        buf = d.clone()\n",
     "                        wide = torch.float32 if d.dtype in (torch.float16, torch.bfloat16) else d.dtype\n"
     "                        buf = d.to(wide, copy=True)\n"))}
