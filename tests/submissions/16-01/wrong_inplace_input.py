"""Computes in place on the input to save memory, then returns a copy: x is changed behind the schema's back."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", ("    return limit * torch.tanh(x / limit)\n",
                                                    "    return x.div_(limit).tanh_().mul_(limit).clone()\n"))}
