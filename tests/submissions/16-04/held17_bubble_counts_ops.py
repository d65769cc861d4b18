"""Known-wrong bubble_fraction (held-out round 17): the busy slots are counted as the number of operations, so a
list with two operations in one (stage, step) slot counts that slot twice ("for any list of such tuples ... return
the fraction of the S·T (stage, step) slots in which no operation runs")."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n",
    "    busy = len(schedule)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'fail', 'pipeline': 'pass'}
