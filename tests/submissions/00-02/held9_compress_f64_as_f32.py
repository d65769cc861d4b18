"""Held-out round 9: pack_compressed only marks a tensor as compressed, and unpack_compressed restores
every compressed tensor to float32, so a float64 activation comes back as float32; the text says the
unpacked tensor has the original dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("return data if dtype is None else data.to(dtype)",
     "return data if dtype is None else data.float()"))}
