"""Round 28: windows builds the view from `x.data` instead of `x`. `.data` shares the storage but not the
version counter, so the windows do not see in-place writes made through `x` (and have no autograd link).
Breaks "The result is a view of `x`: it shares `x`'s storage and, like every view, its version counter
(`_version`)": wrong for any x, e.g. w = windows(x, 2, 1); x.add_(1) leaves w._version at 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    return x.as_strided(''',
    '''    return x.data.as_strided('''))}
