"""Held-out round 9: log clamps its input to 1e-12 "for stability" before taking the log (and divides the
gradient by the clamped input), so log of 0 is -27.6 instead of -inf and log of a negative number is
-27.6 instead of NaN; the text says each operation returns a Value whose .data equals torch's result for
the same tensors."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("a = self.data\n        return Value(a.log(), (self,), lambda g: (g / a,))",
     "a = self.data.clamp_min(1e-12)\n        return Value(a.log(), (self,), lambda g: (g / a,))"))}
