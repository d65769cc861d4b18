"""Round 24 (held out), correct but unusual: Clamp's forward clamps with torch.maximum / torch.minimum
against bounds made by x.new_tensor (x's dtype and device, so lo and hi are rounded exactly as
torch.clamp rounds them), keeps the mask computed from the clamped output y (lo < y < hi holds exactly
where lo < x < hi, and is False for NaN), and backward zeroes the masked-out entries with masked_fill
(an inf or NaN grad_out there still gives 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "pass"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    """        ctx.save_for_backward((x > lo) & (x < hi))
        return x.clamp(lo, hi)""",
    """        y = torch.minimum(torch.maximum(x, x.new_tensor(lo)), x.new_tensor(hi))
        ctx.save_for_backward((y > lo) & (y < hi))
        return y"""), (
    "        return torch.where(mask, grad_out, torch.zeros_like(grad_out)), None, None",
    "        return grad_out.masked_fill(~mask, 0), None, None"))}
