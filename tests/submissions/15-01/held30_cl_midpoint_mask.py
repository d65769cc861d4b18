"""Wrong (held-out round 30): the gradient mask is "inside the band", |x - mid| < half with mid = (lo + hi) / 2
and half = (hi - lo) / 2. The text says Clamp.apply(x, lo, hi) (floats lo < hi) matches torch.clamp in value and
gradient, the mask being lo < x < hi strictly. With an infinite bound mid is infinite: Clamp.apply(x, -inf, 1.0)
at x = [-1.0, 0.5] gives gradient [0, 0] instead of [1, 1]; with lo = -1e308, hi = 1e308 (hi - lo overflows to
inf) the kink x = 1e308 gets gradient 1 instead of 0; and rounding of mid and half moves the kinks (lo = 0.1,
hi = 0.35: gradient 1 at x = 0.1)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    "        ctx.save_for_backward((x > lo) & (x < hi))\n",
    "        mid, half = (lo + hi) / 2, (hi - lo) / 2\n"
    "        ctx.save_for_backward((x - mid).abs() < half)\n"))}
