"""Held-out round 10: trainer_state_dict lists only the states of callbacks that have a state_dict (no None
for the others), while trainer_load_state_dict pairs the list with every callback in order; with a stateless
callback before a stateful one, each state lands one callback too early and the last stateful callback starts
from scratch after a resume (an EarlyStopping counter reset, an EMA that restarts). The text says "callbacks"
is a list with each callback's state_dict() or None, in order."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "fail"}
CELLS = {"resume_impl": edited(
    "15-10", "resume_impl",
    ("\"callbacks\": [cb.state_dict() if hasattr(cb, \"state_dict\") else None for cb in trainer.callbacks],",
     "\"callbacks\": [cb.state_dict() for cb in trainer.callbacks if hasattr(cb, \"state_dict\")],"))}
