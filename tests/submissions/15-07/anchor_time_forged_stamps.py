"""Known-wrong time_op that rewrites the probe's own time stamps (issue 38, "a student's file is data"): on the
CPU it starts the clock before the warm-up calls, so the warm-up is counted in the mean, and then moves the
stamps the probe's fn recorded (found in fn.__closure__) so that the window the judge computed from them (the
span from the end of the warm-up to the end of the last call) starts before the warm-up too. The judge's
window came only from the worker's stamps, so this kept cuda_timing's marks; it now requires the stamps to
be in call order and to fit in the time the judge itself measured around the probe call."""
from course.grading.class_run.submissions import edited

_FORGE = '''    ms = (time.perf_counter() - t_all) * 1000 / iters
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            st = cell.cell_contents
        except ValueError:
            continue
        if isinstance(st, list) and len(st) == warmup + iters and warmup and all(
                isinstance(s, tuple) and len(s) == 2 for s in st):
            b, e = st[warmup - 1]
            st[warmup - 1] = (t_all - (e - b), t_all)
    return ms
'''

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("    device = torch.device(device)\n", "    device = torch.device(device)\n    t_all = time.perf_counter()\n"),
    ("    t0 = time.perf_counter()\n    for _ in range(iters):\n        fn()\n"
     "    return (time.perf_counter() - t0) * 1000 / iters\n",
     "    for _ in range(iters):\n        fn()\n" + _FORGE))}
EXPECT = {"cuda_timing": "fail"}
