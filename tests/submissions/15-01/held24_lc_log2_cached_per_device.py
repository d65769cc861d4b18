"""Round 24 (held out): LogCosh caches log(2) as a tensor, one per device, made in the dtype of the first
input seen on that device. After LogCosh.apply on a float32 x, a later float64 call on the same device
subtracts the float32-rounded log 2 (off by 1.9e-9): LogCosh.apply(tensor(0., float64)) returns -1.9e-9
instead of 0, and every float64 value is off by that much. Breaks "Compute it stably as
|x| + log1p(exp(-2|x|)) - log(2)" / "as torch.log(torch.cosh(x)) does" across calls (state kept between
calls)."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    """        ctx.save_for_backward(x)
        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)""",
    """        ctx.save_for_backward(x)
        cache = LogCosh.__dict__.get("_log2")
        if cache is None:
            cache = {}
            LogCosh._log2 = cache
        if x.device not in cache:
            cache[x.device] = torch.log(torch.tensor(2.0, dtype=x.dtype, device=x.device))
        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - cache[x.device]"""))}
