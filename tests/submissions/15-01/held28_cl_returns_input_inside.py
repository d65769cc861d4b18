"""Wrong (held-out round 28): forward returns `x` itself when every element lies strictly inside (lo, hi)
("nothing to clamp"). A custom Function that returns an input as-is gives back a view of that input: the result
shares x's memory, an in-place change of the result changes the caller's x (x without requires_grad), and with
requires_grad an in-place change of the result raises "Output 0 of Clamp is a view and is being modified
inplace". The text: "matching `torch.clamp(x, lo, hi)` in value and in gradient": torch.clamp always returns a
new tensor that the caller may modify. Goes wrong on x = [0.1, 0.2] (float64), lo -1, hi 1: `y =
Clamp.apply(x, -1.0, 1.0); y.add_(1)` leaves x = [1.1, 1.2] (torch.clamp leaves x = [0.1, 0.2]); with
x.requires_grad the add_ raises. Values and gradients are right everywhere."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    "        ctx.save_for_backward((x > lo) & (x < hi))\n        return x.clamp(lo, hi)\n",
    "        inside = (x > lo) & (x < hi)\n"
    "        ctx.save_for_backward(inside)\n"
    "        if bool(inside.all()):  # nothing to clamp\n"
    "            return x\n"
    "        return x.clamp(lo, hi)\n"))}
