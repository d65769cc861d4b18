"""Known-wrong EMACallback (round 16): keeps the shadow copies in float32 ("the usual choice for an EMA
of a half-precision model"). For a float64 model the average is rounded to float32 at every update and
copy_to writes float32-rounded values: not the rule of AveragedModel(get_ema_multi_avg_fn(decay)), whose
averaged copy keeps the model's dtype (a narrow accumulator of wider inputs)."""
from course.grading.class_run.submissions import edited

CELLS = {"callbacks_impl": edited("15-10", "callbacks_impl", (
    "self.shadow = [w.clone() for w in weights]",
    "self.shadow = [w.float().clone() for w in weights]  # EMA kept in float32"))}
EXPECT = {"callbacks": "fail"}
