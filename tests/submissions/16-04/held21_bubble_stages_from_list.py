"""Known-wrong bubble_fraction (held-out round 21): the number of stages is taken from the list (1 + the largest
stage in it) instead of the argument S, so a list in which the last stages never run counts too few slots
("return the fraction of the S·T (stage, step) slots in which no operation runs")."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n",
    "    S = 1 + max(s for _, s, _, _ in schedule)\n"
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'fail', 'pipeline': 'pass'}
