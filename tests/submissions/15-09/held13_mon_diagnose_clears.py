"""Held-out round 13 (GradMonitor, norms(): "the gradient received since the monitor was created or last
cleared"; "clear() forgets every recorded gradient"): diagnose() is treated as the end-of-step report and
starts the next step from zero by calling clear() itself, so norms() (or a second diagnose()) after a
diagnose() reports zeros although clear() was never called."""
from course.grading.class_run.submissions import edited

EXPECT = {"monitor": "fail"}
BASE = "reference"
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "        norms = list(self.norms().items())\n",
    "        norms = list(self.norms().items())\n        self.clear()  # one report per step: the next one starts from zero\n",
))}
