"""Held-out round 10: validate runs loss_fn in full precision, outside the autocast context the training
forward uses, so with precision="bf16" the validation loss is a float32 forward's. The text says validation
runs in eval() mode and under torch.no_grad() "(and the same autocast)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "fail", "resume": "pass"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("                with self.autocast():\n                    losses.append(",
     "                if True:\n                    losses.append("))}
