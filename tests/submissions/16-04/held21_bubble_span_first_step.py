"""Known-wrong bubble_fraction (held-out round 21): T is the span from the first to the last time step in the
list, so a list whose operations start after step 0 loses its idle leading steps ("with T = 1 + the largest
time step in it, return the fraction of the S·T (stage, step) slots in which no operation runs")."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    T = 1 + max(t for t, _, _, _ in schedule)\n",
    "    T = 1 + max(t for t, _, _, _ in schedule) - min(t for t, _, _, _ in schedule)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'fail', 'pipeline': 'pass'}
