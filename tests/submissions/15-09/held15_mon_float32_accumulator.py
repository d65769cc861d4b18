"""norms() squares the recorded gradients in float32 (cast up from float16 "to avoid overflow") and sums them in a
default-dtype (float32) zero: a float64 gradient of 1e20 squares to inf, so a finite norm of 1e20 is reported as
inf (and diagnose says 'nonfinite' instead of 'exploding')."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl",
                                ("total = torch.zeros((), dtype=torch.float64)", "total = torch.zeros(())"),
                                (".double().pow(2)", ".float().pow(2)"))}
