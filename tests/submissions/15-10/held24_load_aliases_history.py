"""Wrong (held-out round 24): trainer_load_state_dict binds trainer.history to the checkpoint's own list
(trainer.history = ckpt["history"]), so training after the load appends rows INTO the checkpoint dict that was
passed in: loading one in-memory checkpoint into two trainers (or into one trainer twice, to retry) makes them
share one history, each appending its rows to the other's. Contradicts "trainer_load_state_dict(trainer, ckpt)
restores all of it into an already constructed Trainer" (a restore copies the state; it does not alias and later
modify the checkpoint) and "history (so the curves continue after a resume)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"resume": "fail"}
CELLS = {"resume_impl": edited(
    "15-10", "resume_impl",
    ('    trainer.history = [dict(row) for row in ckpt.get("history", [])]\n',
     '    trainer.history = ckpt.get("history", [])\n'))}
