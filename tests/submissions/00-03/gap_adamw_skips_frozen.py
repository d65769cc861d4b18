"""Known-wrong ScratchAdamW (gap round): skips a parameter that does not require grad even when it has a
.grad, where torch.optim.AdamW steps every parameter with a .grad."""
from course.grading.class_run.submissions import edited

CELLS = {"adamw_impl": edited("00-03", "adamw_impl",
    ("                if p.grad is None:\n                    continue\n                g = p.grad",
     "                if p.grad is None or not p.requires_grad:\n                    continue\n                g = p.grad"))}
EXPECT = {"adamw": "fail"}
