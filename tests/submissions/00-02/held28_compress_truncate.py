"""Wrong (held-out round 28): bfloat16 by truncation: keeps the top 16 bits of the float32 pattern (round toward
zero) instead of converting with bfloat16's round-to-nearest. Violates "unpack_compressed(packed) returns ...
equal to t up to bfloat16 rounding" (and "stores ... as bfloat16": it is not t.to(torch.bfloat16)). Goes wrong on
every value whose dropped 16 bits are >= 0x8000: error up to one bfloat16 ulp instead of half, e.g. t = 1 + 2**-8 +
2**-9 (float32) comes back 1.0 instead of 1.0078125; on float32's largest values (3.4e38 comes back finite where
bfloat16 rounding gives inf); and on a NaN whose payload is only in the low bits (bits 0x7F800001 come back +inf)."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)",
     "        top = t.to(torch.float32).view(torch.int32) >> 16  # a bfloat16 is the top half of a float32\n"
     "        return (top.to(torch.int16).view(torch.bfloat16), t.dtype)"),
)}
