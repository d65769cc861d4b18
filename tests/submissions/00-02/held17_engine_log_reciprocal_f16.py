"""Held-out round 17: the rule of `log` is written `g * (1 / a)` instead of `g / a`. In float32 and float64 the
two differ by a rounding, but in float16 `1 / a` overflows to inf for every `a` below 1/65504 (1.5e-5) while
`g / a` is finite whenever the gradient is: `(x.log() * c).sum()` at x = 1e-5 in float16 with c = 0.25 gives
inf instead of torch's 24960. The text: "`out.backward()` ... adds d(out)/d(leaf) into `.grad`", checked
against `torch.autograd.grad`, with the leaf's dtype (float16 included)."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        return Value(a.log(), (self,), lambda g: (g / a,))\n",
     "        inv = 1 / a\n"
     "        return Value(a.log(), (self,), lambda g: (g * inv,))\n"))}
