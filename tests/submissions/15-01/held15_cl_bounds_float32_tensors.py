"""Round 15: Clamp turns lo and hi into tensors with torch.tensor(lo), which makes float32 0-dim tensors: for a
float64 x the bounds are rounded to float32 (lo = -0.3 clamps to -0.30000001192...), in the value and in the
mask ("matching torch.clamp(x, lo, hi) in value and in gradient")."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    """        ctx.save_for_backward((x > lo) & (x < hi))
        return x.clamp(lo, hi)""",
    """        lo_t, hi_t = torch.tensor(lo), torch.tensor(hi)
        ctx.save_for_backward((x > lo_t) & (x < hi_t))
        return torch.minimum(torch.maximum(x, lo_t), hi_t)"""))}
