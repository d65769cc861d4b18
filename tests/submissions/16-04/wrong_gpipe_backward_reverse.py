"""GPipe with the backwards in reverse micro-batch order (M-1 first), as in the original paper's figure; the
text fixes the order 0, 1, ..., M-1."""
from course.grading.class_run.submissions import edited

EXPECT = {'schedule': 'fail'}
CELLS = {
    'schedule_impl': edited("16-04", 'schedule_impl', ('def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:\n    ### BEGIN SOLUTION\n    return _greedy(S, M, one_f_one_b=False)', 'def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:\n    ### BEGIN SOLUTION\n    ops = _greedy(S, M, one_f_one_b=False)\n    return sorted([(t, s, k, M - 1 - m if k == "B" else m) for t, s, k, m in ops], key=lambda o: (o[0], o[1]))')),
}
