"""Round 27: windows rejects size 0 and step below 1, but tests `size == 0` instead of `size < 1`, so a
negative size falls through to as_strided, which raises RuntimeError (negative dimension). Breaks "Raise
`ValueError` for a 0-dim `x`, and when `size` or `step` is below 1": wrong for size=-2 on any x."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''if size < 1 or step < 1:''',
    '''if size == 0 or step < 1:'''))}
