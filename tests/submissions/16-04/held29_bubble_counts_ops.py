"""Known-wrong bubble_fraction (held-out round 29): the busy slots are counted as len(schedule), one per operation,
instead of the number of distinct (stage, step) slots that hold an operation. For a schedule of one of the two
functions both are equal; the text says bubble_fraction works "for any list of such tuples (sorted or not)" and
returns "the fraction of the S·T (stage, step) slots in which no operation runs". Input on which it goes wrong:
bubble_fraction([(0, 0, "F", 0), (0, 0, "B", 0), (1, 1, "F", 0)], 2): slots (0, 0) and (1, 1) are busy, 2 of 4 are
idle, 0.5 expected; this returns 0.25 (and a list that names one slot three times can even give a negative
fraction)."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n",
    "    busy = len(schedule)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'fail', 'pipeline': 'pass'}
