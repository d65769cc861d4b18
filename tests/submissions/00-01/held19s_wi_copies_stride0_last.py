"""Round 19s: an x whose last dimension is expanded (stride 0: every element along it is the same one) is made
contiguous first, "so that the windows walk real memory": the result is then a copy, not a view of x (the text:
x in any layout, expanded with stride 0 included; the result is a view of x that shares its storage)."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    length, st = x.shape[-1], x.stride(-1)''',
    '''    if x.shape[-1] > 1 and x.stride(-1) == 0:  # a broadcast last dimension: give the windows real memory
        x = x.contiguous()
    length, st = x.shape[-1], x.stride(-1)'''))}
