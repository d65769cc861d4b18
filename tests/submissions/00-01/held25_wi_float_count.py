"""Round 25: windows counts its windows with a float division, math.ceil((length - size + 1) / step), the
formula a student writes from "starting every step elements". Exact for small lengths, off once the last
dimension passes 2**53, which an x "expanded with stride 0" reaches at no cost: for
x = torch.zeros(1).expand(2**60 + 5), windows(x, 3, 7) has 164703072086692416 windows where x.unfold(-1, 3, 7)
has 164703072086692426. Breaks "Its shape, strides and values equal those of x.unfold(-1, size, step)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    count = max(0, (length - size) // step + 1)''',
    '''    count = max(0, math.ceil((length - size + 1) / step))'''))}
