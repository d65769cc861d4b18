# The observer starts from min_val = max_val = 0 and takes "both still exactly 0" to mean "nothing seen
# yet": a first tensor of zeros is forgotten, and the next tensor is treated as the first (the moving
# average jumps to its extremes; the running min-max loses the 0). Breaks "the first tensor sets them and
# each later one moves them" and "the extremes over every tensor observed so far".
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        self.min_val = self.max_val = None\n",
    "        self.min_val = self.max_val = torch.zeros(())\n"), (
    "        if self.min_val is None:\n",
    "        if bool((self.min_val == 0).all()) and bool((self.max_val == 0).all()):  # nothing seen yet\n"))}
