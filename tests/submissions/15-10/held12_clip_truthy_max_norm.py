"""Known-wrong Trainer (held-out round 12): tests `if self.max_grad_norm:` instead of `is not None`, so
max_grad_norm=0.0 (clip everything to zero) does not clip at all. The text: "Clip with your clip_grad_norm
when max_grad_norm is not None"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "        if self.max_grad_norm is not None:",
    "        if self.max_grad_norm:"))}
EXPECT = {"trainer": "fail"}
