# zero3_step calls loss_fn(y, h) instead of loss_fn(h, y): the same for a symmetric loss (MSE), wrong
# for any other ("loss_fn(h, y) is the mean loss over the slice").
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "            out = loss_fn(out, y)\n",
    "            out = loss_fn(y, out)\n"))}
