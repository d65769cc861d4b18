"""Held-out round 27: `pack_compressed` compresses every floating-point dtype except the float16 the text names
(`t.is_floating_point() and t.dtype != torch.float16`). bfloat16 comes through untouched (`.to` returns the same
tensor), but a float8 tensor (float8_e4m3fn, float8_e5m2) is stored as a bfloat16 copy, twice its bytes, and
unpacked into a new tensor. The values come back exactly, so only what the graph keeps is wrong. The text:
"Tensors of any other dtype (integer indices, bool masks, float16) are kept as they are"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n",
     "    if t.is_floating_point() and t.dtype != torch.float16:\n"))}
