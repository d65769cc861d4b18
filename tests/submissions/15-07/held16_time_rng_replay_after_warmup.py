"""Known-wrong time_op (round 16): saves the RNG state before the warm-up and restores it after, so that the
timed calls draw the same random numbers as the warm-up ones ("a fair comparison"). The text says fn is called
with the caller's random-number state and time_op changes none of it itself: the timed calls repeat the warm-up's
draws and the caller finds the state of warmup fewer calls."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("    for _ in range(warmup):\n        fn()\n",
     "    _rng = torch.get_rng_state()\n    for _ in range(warmup):\n        fn()\n    torch.set_rng_state(_rng)\n"))}
EXPECT = {"cuda_timing": "fail"}
