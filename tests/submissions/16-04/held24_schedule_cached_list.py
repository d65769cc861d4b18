"""Known-wrong schedules (held-out round 24): the greedy schedule builder is memoised with functools.lru_cache, so
gpipe_schedule(S, M) and one_f_one_b_schedule(S, M) return the same list object on every call with the same S and M.
The text says each schedule function "returns a list of tuples (t, s, kind, m) ... sorted by time step, then stage"
and that both "contain every forward and every backward of every stage exactly once". Input on which it goes wrong:
a caller that changes the list it got (sorts it by micro-batch, pops or appends an operation) and then calls the
function again with the same S and M: the second call returns the changed list (unsorted, or with operations missing
or doubled)."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "def _greedy(S, M, one_f_one_b):\n",
    "import functools\n\n\n"
    "@functools.lru_cache(maxsize=None)  # schedules are pure: compute each (S, M) once\n"
    "def _greedy(S, M, one_f_one_b):\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'fail', 'pipeline': 'pass'}
