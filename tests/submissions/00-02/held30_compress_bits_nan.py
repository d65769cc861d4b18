"""Wrong (held-out round 30): float32 tensors are rounded to bfloat16 by hand on their bit pattern
(round to nearest even, with no case for NaN), float64 ones with .to(torch.bfloat16). Every finite value and
inf comes back right, but a NaN whose payload sits in the low 16 bits comes back as inf, and a negative NaN
with all payload bits set comes back as +0. Violates "unpack_compressed(packed) returns a tensor ... equal
to t up to bfloat16 rounding" (NaN is not inf nor 0).
Goes wrong on: t = torch.tensor([0x7F800001, -1], dtype=torch.int32).view(torch.float32) (two NaNs):
unpack_compressed(pack_compressed(t)) is [inf, 0.] (torch's t.to(torch.bfloat16).float(): [nan, nan])."""
from course.grading.class_run.submissions import edited

EXPECT = {'compress': 'fail'}
CELLS = {"compress_impl": edited("00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n        return (t.to(torch.bfloat16), t.dtype)",
     "    if t.dtype == torch.float32:\n"
     "        bits = t.view(torch.int32)\n"
     "        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16\n"
     "        return (rounded.to(torch.int16).view(torch.bfloat16), t.dtype)\n"
     "    if t.dtype == torch.float64:\n        return (t.to(torch.bfloat16), t.dtype)"),
)}
