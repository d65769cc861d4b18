"""Held-out round 10: optimizer_step calls scaler.unscale_ only when it clips (max_grad_norm set), as the
clipping recipe in PyTorch's AMP notes does; without clipping the logged grad_norm and last_grad_norm are the
norm of the SCALED gradients. The text says unscale_ comes at a step before measuring or clipping, and
grad_norm is the global norm of the (unscaled) gradients."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "fail", "resume": "pass"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)\n",
     "        if self.scaler is not None and self.max_grad_norm is not None:\n"
     "            self.scaler.unscale_(self.optimizer)\n"))}
