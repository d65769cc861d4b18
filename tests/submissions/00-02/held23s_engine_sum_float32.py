"""Held-out round 23, second pass (not counted): `sum()` accumulates and returns in float32 for float16 and
bfloat16 inputs ("more accurate"), and backward casts each leaf's gradient to the leaf's dtype, so every `.grad`
has the right dtype and nearly torch's values. But the sum's `.data` is float32 where torch's sum of float16 is
float16 (and inf past 65504). The text: "Each returns a new `Value` whose `.data` equals torch's result for the same
tensors"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        return Value(a.sum(), (self,), lambda g: (g.expand(a.shape),))\n",
     "        s = a.sum(dtype=torch.float32) if a.dtype in (torch.float16, torch.bfloat16) else a.sum()\n"
     "        return Value(s, (self,), lambda g: (g.expand(a.shape),))\n"),
    ("                v.grad = g.clone() if v.grad is None else v.grad + g\n",
     "                g = g.to(v.data.dtype)\n"
     "                v.grad = g.clone() if v.grad is None else v.grad + g\n"))}
