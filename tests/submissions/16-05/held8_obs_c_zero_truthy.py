"""Held-out round 8: the observer tests the averaging constant by truth value (`elif not self.c`), so
averaging_constant=0.0 keeps running extremes like a min-max observer; the text says with a float
averaging_constant c the first tensor sets the range and each later one moves it by c * (x_min - min_val), which
for c = 0.0 leaves the first tensor's range, as MovingAverageMinMaxObserver(averaging_constant=0.0) does."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", ("elif self.c is None:", "elif not self.c:"))}
