"""Wrong (held-out round 30): float32/float64 tensors of at most one element ("not worth compressing")
are kept as they are: the packed object holds t itself. Violates "pack_compressed(t) stores a float32 or
float64 tensor as bfloat16: what it returns holds no tensor other than the bfloat16 copy (no reference to
t ...)".
Goes wrong on: t = torch.tensor(3.14159) (0-dim float32) or torch.randn(1, dtype=torch.float64):
pack_compressed(t) holds t (float32 / float64, the same storage), not a bfloat16 copy; unpack gives t's
exact value back."""
from course.grading.class_run.submissions import edited

EXPECT = {'compress': 'fail'}
CELLS = {"compress_impl": edited("00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n",
     "    if t.dtype in (torch.float32, torch.float64) and t.numel() > 1:\n"),
)}
