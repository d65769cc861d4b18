"""Wrong (held-out round 28): the hook short-cuts max_norm == 0 with `p.grad.zero_()` ("everything clips to
zero"). For a finite gradient that is the same as multiplying by 0 / norm, but a gradient holding a NaN must be
left alone: the text says "leave it alone otherwise, also when a NaN in the gradient makes the norm NaN" (NaN >
0 is False); likewise an inf gradient gives NaN where the formula multiplies inf by 0 / inf. Goes wrong on
attach_grad_clipping(model, 0.0) with a parameter whose gradient is [nan, 1.0]: expected [nan, 1.0] (left
alone), returns [0., 0.]. Every max_norm > 0 is right."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "    def clip(p):\n",
    "    def clip(p):\n"
    "        if max_norm == 0:  # everything clips to zero\n"
    "            p.grad.zero_()\n"
    "            return\n"))}
