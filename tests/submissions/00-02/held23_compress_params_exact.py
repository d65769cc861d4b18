"""Held-out round 23: pack_compressed keeps the model's parameters (leaves that require grad) in full precision
and compresses only the other float tensors, reasoning that the weights are not activations and are held by the
model anyway. The gradients only get more accurate, but a float32 parameter saved by an operation is not stored
as bfloat16. The text: "`pack_compressed(t)` stores a float32 or float64 tensor as bfloat16" (every one; only
other dtypes are kept as they are)."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n",
     "    if t.dtype in (torch.float32, torch.float64) and not (t.is_leaf and t.requires_grad):\n"))}
