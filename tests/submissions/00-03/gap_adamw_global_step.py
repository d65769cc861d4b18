"""Known-wrong ScratchAdamW (gap round): counts steps once per step() call for the whole optimizer, so a
parameter that had no .grad in some steps is bias-corrected with the optimizer's count, not its own
("t counts the steps this parameter has taken"; "does not count the step")."""
from course.grading.class_run.submissions import edited

CELLS = {"adamw_impl": edited("00-03", "adamw_impl",
    ("        for group in self.param_groups:\n            lr, (b1, b2)",
     "        self._calls = getattr(self, \"_calls\", 0) + 1\n"
     "        for group in self.param_groups:\n            lr, (b1, b2)"),
    ("                t = int(state[\"step\"]) + 1\n", "                t = max(int(state[\"step\"]) + 1, self._calls)\n"))}
EXPECT = {"adamw": "fail"}
