"""Wrong (held-out round 28): EarlyStopping.improved tests "no best yet" with `if not self.best`, so a best
value of 0.0 counts as "no value seen". Section 4: "the first value always counts as one" (only the first);
otherwise an improvement is strictly better than best - min_delta. Input: mode "min", values 0.0 then 0.5
(e.g. a perfect validation loss): improved(0.5) answers True, best becomes 0.5 and the counter resets; the same
in mode "max" with an accuracy of 0.0 followed by a lower value -1.0."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("        if self.best is None:\n            return True\n",
     "        if not self.best:\n            return True\n"))}
