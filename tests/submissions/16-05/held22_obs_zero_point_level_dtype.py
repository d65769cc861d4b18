"""Round 22: calculate_qparams returns the zero point in the level dtype (uint8 or int8), "since the zero point is
a level". The values are right (0..255 or -128..127 fit), but the text asks for "a float32 tensor and an integer
tensor (int32 or int64)"; a uint8 zero point also wraps in any arithmetic a caller does with it (z - 200)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        return scale, zero_point\n",
    "        return scale, zero_point.to(self.dtype)  # a zero point is a level\n"))}
