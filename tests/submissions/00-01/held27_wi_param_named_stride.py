"""Round 27: windows written as windows(x, size, stride) (the window's move called a stride, as in
as_strided). Positional calls work; a call by keyword, windows(x, size=3, step=2), raises TypeError.
Breaks "Write `windows(x, size, step)`": the text names the parameters, and a caller may use those names."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''def windows(x, size, step):''',
    '''def windows(x, size, stride):
    step = stride'''))}
