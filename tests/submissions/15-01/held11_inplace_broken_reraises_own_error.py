"""Wrong: "It must raise the version-counter RuntimeError (let it propagate)". This run_broken does the
exp, the in-place add and the backward, but catches autograd's error and raises its own RuntimeError
with a shorter message (it still says "modified by an inplace operation"): the caller no longer sees
autograd's message naming the tensor, ExpBackward0 and the versions."""
from course.grading.class_run.submissions import edited

EXPECT = {"inplace": "fail"}
CELLS = {"inplace_impl": edited(
    "15-01", "inplace_impl",
    ("    y.add_(1)\n    y.sum().backward()\n",
     "    y.add_(1)\n    try:\n        y.sum().backward()\n    except RuntimeError:\n"
     "        raise RuntimeError(\"y was modified by an inplace operation after exp saved it\") from None\n"))}
