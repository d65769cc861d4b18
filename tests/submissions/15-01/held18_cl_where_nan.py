"""Round 18: Clamp builds its output from the saved mask, torch.where(mask, x, torch.where(x <= lo, lo, hi)):
a NaN input is neither inside nor <= lo, so its output is hi where torch.clamp returns NaN ("matching
torch.clamp(x, lo, hi) in value")."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    """        ctx.save_for_backward((x > lo) & (x < hi))
        return x.clamp(lo, hi)""",
    """        mask = (x > lo) & (x < hi)
        ctx.save_for_backward(mask)
        return torch.where(mask, x, torch.where(x <= lo, lo, hi))"""))}
