"""Round 24 (held out): Clamp compares x with the bounds in float64 ("at the Python floats' full
precision"): mask = (x.double() > lo) & (x.double() < hi). torch.clamp compares in x's dtype, where lo is
rounded like x: for a float32 x holding float32(0.1) and lo = 0.1, torch.clamp returns x (it is at the
kink) and passes no gradient, but float32(0.1) = 0.10000000149 > 0.1 in float64, so this Clamp passes
grad_out. Breaks "matching torch.clamp(x, lo, hi) in value and in gradient ... at x == lo ... pass no
gradient there. Match it exactly" for float32 inputs at a bound that float32 cannot hold exactly."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    "ctx.save_for_backward((x > lo) & (x < hi))",
    "ctx.save_for_backward((x.double() > lo) & (x.double() < hi))"))}
