"""Wrong (held-out round 28): EarlyStopping.improved(value) is not a pure question: when the value improves it
records it as the new best right away. Section 4: after each validation the callback compares the new value
with the best so far; improved(value) answers whether value is an improvement over the best (it may be asked
without a validation, e.g. by a checkpoint callback or a logger). Input: improved(0.5) twice on a fresh callback in
mode "min": True then False (expected True both times); improved(0.5) then on_validation_end({"val_loss": 0.5})
counts a validation without improvement (wait 1) instead of recording 0.5 as the first best."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("        if self.best is None:\n            return True\n"
     "        if self.mode == \"min\":\n            return value < self.best - self.min_delta\n"
     "        return value > self.best + self.min_delta\n",
     "        if self.best is None:\n            better = True\n"
     "        elif self.mode == \"min\":\n            better = value < self.best - self.min_delta\n"
     "        else:\n            better = value > self.best + self.min_delta\n"
     "        if better:\n            self.best = value\n"
     "        return better\n"))}
