"""find_leaks calls step() once more before its n_iters counted calls, as a warm-up that absorbs first-iteration
state (optimizer buffers, caches): step runs n_iters + 1 times, and the iterations it judges are shifted by one,
although the text says it "calls step() n_iters times"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    "    seen = alive()\n",
    "    step()  # warm-up: first-iteration state is not a leak\n"
    "    seen = alive()\n"))}
