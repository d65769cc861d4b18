# The straight-through mask is kept in a module-level variable rather than on ctx: with two fake_quantize
# calls before one backward (QATLinear's input and weight), the first call's gradient is masked by the
# second call's mask. Breaks "The gradient with respect to x is ... zero elsewhere" (for this x).
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        ctx.save_for_backward(inside)\n",
    "        global _LAST_INSIDE\n        _LAST_INSIDE = inside\n"), (
    "        (inside,) = ctx.saved_tensors\n",
    "        inside = _LAST_INSIDE\n"))}
