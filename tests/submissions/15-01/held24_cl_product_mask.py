"""Round 24 (held out): Clamp's backward mask is computed with one comparison, (x - lo) * (hi - x) > 0,
instead of (x > lo) & (x < hi). The product underflows to 0 when x lies strictly inside a very narrow or
very small interval: Clamp.apply(x, 0.0, 1e-200) with x = 1e-210 or 5e-201 (float64) passes no gradient, where
torch.clamp passes grad_out. Breaks "matching torch.clamp(x, lo, hi) in value and in gradient" with
"floats lo < hi" (the mask is lo < x < hi, strictly)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    "ctx.save_for_backward((x > lo) & (x < hi))",
    "ctx.save_for_backward((x - lo) * (hi - x) > 0)"))}
