"""Writes the new values with p.copy_(...) outside torch.no_grad(): on parameters that require grad (as
nn.Parameters do) autograd refuses an in-place change of a leaf, so every step raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero1": "fail", "zero2": "fail"}
CELLS = {"zero1_impl": edited("16-04", "zero1_impl", ("""    start = 0
    with torch.no_grad():
        for p in params:
            p.copy_(full[start:start + p.numel()].view_as(p))
            start += p.numel()""", """    start = 0
    for p in params:
        p.copy_(full[start:start + p.numel()].view_as(p))
        start += p.numel()"""))}
