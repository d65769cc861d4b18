"""Held-out round 9: pack_compressed stores float32/float64 tensors as float16 instead of bfloat16 (same
two bytes, "half precision"), so activations above 65504 come back as inf and small ones lose their
digits or flush to zero; the text says they are stored as bfloat16 and come back equal to t up to
bfloat16 rounding."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("return (t.to(torch.bfloat16), t.dtype)", "return (t.to(torch.float16), t.dtype)"))}
