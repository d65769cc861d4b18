"""Wrong: "Save tensors with ctx.save_for_backward". This version saves x with save_for_backward but
keeps y as a plain attribute (ctx.y = y), so an in-place change to y between forward and backward is not
detected: backward silently uses the modified y for x's gradient instead of raising."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited(
    "15-01", "scaled_mul_impl",
    ("        ctx.save_for_backward(x, y)\n", "        ctx.save_for_backward(x)\n        ctx.y = y\n"),
    ("        x, y = ctx.saved_tensors\n", "        (x,) = ctx.saved_tensors\n        y = ctx.y\n"))}
