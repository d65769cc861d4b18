"""Two realistic mistakes in different tasks; the other tasks keep the reference solution.

- zero2_step all-reduces the gradient and slices its shard (no reduce-scatter);
- gpipe_schedule runs the backwards in reverse micro-batch order.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "fail", "schedule": "fail"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "zero2_impl": edited("16-04", "zero2_impl", ("""    g = flat_grad.new_empty(flat_grad.numel() // world)
    dist.reduce_scatter_single(g, flat_grad)
    g /= world""", """    k = flat_grad.numel() // world
    dist.all_reduce(flat_grad)
    g = flat_grad[rank * k:(rank + 1) * k] / world""")),
    "schedule_impl": edited("16-04", "schedule_impl", ("""def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    ### BEGIN SOLUTION
    return _greedy(S, M, one_f_one_b=False)""", """def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    ### BEGIN SOLUTION
    ops = _greedy(S, M, one_f_one_b=False)
    return sorted([(t, s, k, M - 1 - m if k == "B" else m) for t, s, k, m in ops], key=lambda o: (o[0], o[1]))""")),
}
