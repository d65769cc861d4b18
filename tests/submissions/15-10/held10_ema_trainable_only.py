"""Held-out round 10: EMACallback averages only the parameters that require grad, and copy_to writes only
into the target's parameters that require grad; so a frozen parameter of the target module keeps its own
value instead of the averaged one (the model's frozen value). The text says only the parameters
(module.parameters(), in order) are averaged, and copy_to copies the averaged weights into a module's
parameters."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "fail", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("weights = [p.detach() for p in trainer.model.parameters()]",
     "weights = [p.detach() for p in trainer.model.parameters() if p.requires_grad]"),
    ("for p, s in zip(module.parameters(), self.shadow):",
     "for p, s in zip([q for q in module.parameters() if q.requires_grad], self.shadow):"))}
