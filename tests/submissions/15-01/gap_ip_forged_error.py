"""Known-wrong run_broken (gap round): raises the version-counter error's words itself instead of
computing exp, adding 1 in place and calling backward."""
from course.grading.class_run.submissions import edited

CELLS = {"inplace_impl": edited("15-01", "inplace_impl",
    ("    y = torch.exp(x)\n    y.add_(1)\n    y.sum().backward()",
     "    raise RuntimeError('one of the variables needed for gradient computation has been modified by an '\n"
     "                       'inplace operation')"))}
EXPECT = {"inplace": "fail"}
