"""Loads and stores without the mask: the last, partial block reads and writes past the end of the tensors."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl",
                               ("    x = tl.load(x_ptr + offs, mask=inside, other=0.0)\n", "    x = tl.load(x_ptr + offs)\n"),
                               ("    keep = tl.load(keep_ptr + offs, mask=inside, other=0)\n", "    keep = tl.load(keep_ptr + offs)\n"),
                               ("y * scale, 0.0), mask=inside)", "y * scale, 0.0))"))}
