"""Known-wrong CheckpointCallback (round 18, second pass; not counted): writes best.pt, then updates
self.best. best.pt then holds a callback state with the PREVIOUS best value; a run resumed from best.pt
takes a worse value (between the two) for a new best and overwrites best.pt with it: against "metrics[monitor]
is the best value so far (strictly better ...), write best.pt"."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    "            self.best = value\n            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, \"best.pt\"))\n",
    "            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, \"best.pt\"))\n            self.best = value\n"))}
EXPECT = {"checkpoint": "fail"}
