"""Round 27: windows builds its result with Tensor.set_ on x's storage instead of as_strided. It shares x's
storage and has the right shape, strides and values, but it is not a view of x: it has its own version
counter (a write through it does not bump x._version, so autograd cannot see it) and no autograd link
(x.requires_grad is lost). Breaks "Write `windows(x, size, step)` with `as_strided`" and "The result is a
view of `x`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(x.stride()[:-1]) + (step * st, st),
                        x.storage_offset())''',
    '''    out = torch.empty(0, dtype=x.dtype, device=x.device)
    return out.set_(x.untyped_storage(), x.storage_offset(), tuple(x.shape[:-1]) + (count, size),
                    tuple(x.stride()[:-1]) + (step * st, st))'''))}
