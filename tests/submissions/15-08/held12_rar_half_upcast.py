"""Held-out round 12 (ring_all_reduce, "a float or integer dtype" and "Return a new tensor of x's dtype"):
float16 and bfloat16 are summed in float32 for accuracy, and the float32 result is returned without casting
back, so a float16 x gives a float32 sum. (float64, float32 and the integer dtypes are untouched.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
BASE = "reference"
CELLS = {"ring_all_reduce_impl": edited("15-08", "ring_all_reduce_impl", (
    "flat = x.reshape(-1).clone()",
    "flat = x.reshape(-1).clone()\n    if flat.dtype in (torch.float16, torch.bfloat16):\n        flat = flat.float()",
))}
