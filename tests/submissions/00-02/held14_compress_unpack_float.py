"""Held-out round 14: unpack turns every packed bfloat16 tensor back with `.float()`, so a float64 activation
comes back as float32. The text: "`unpack_compressed(packed)` returns a tensor with the original shape,
dtype and device"."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("    return data if dtype is None else data.to(dtype)",
     "    return data if dtype is None else data.float()"))}
