"""Round 22: run_broken raises the RuntimeError with autograd's words itself, without computing exp(x), adding
1 in place or calling backward ("compute y = torch.exp(x), add 1 to y in place, and call backward on y.sum().
It must raise the version-counter RuntimeError (let it propagate)": the error must be autograd's own)."""
from course.grading.class_run.submissions import edited

EXPECT = {"inplace": "fail"}
CELLS = {"inplace_impl": edited("15-01", "inplace_impl", (
    """    y = torch.exp(x)
    y.add_(1)
    y.sum().backward()""",
    """    raise RuntimeError("one of the variables needed for gradient computation has been modified by an "
                       "inplace operation: [torch.FloatTensor [3]], which is output 0 of ExpBackward0, is at "
                       "version 1; expected version 0 instead.")"""))}
