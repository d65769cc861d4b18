"""Round 19: when size is larger than the last dimension, windows returns a fresh torch.empty of the right shape
and dtype, made without device= (on the CPU for an x elsewhere) and sharing nothing with x (the text: the result
is a view of x that shares its storage)."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    count = max(0, (length - size) // step + 1)''',
    '''    if size > length:
        return torch.empty(tuple(x.shape[:-1]) + (0, size), dtype=x.dtype)
    count = (length - size) // step + 1'''))}
