"""Makes the real output contiguous while the fake kernel says empty_like: transposed inputs get other strides."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", ("    return limit * torch.tanh(x / limit)\n",
                                                    "    return (limit * torch.tanh(x / limit)).contiguous()\n"))}
