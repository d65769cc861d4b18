"""Held-out round 25: the dtype test is written `t.dtype == torch.float32 or torch.float64`, which is always
true: every saved tensor goes through bfloat16, so int64 indices above 256, int32/int16 values and float16
activations come back rounded (max-pooling's indices become wrong). The text: "Tensors of any other dtype (integer
indices, bool masks, float16) are kept as they are" and "exactly `t`'s values for the tensors kept as they are"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n",
     "    if t.dtype == torch.float32 or torch.float64:\n"))}
