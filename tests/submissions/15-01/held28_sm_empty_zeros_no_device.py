"""Wrong (held-out round 28): backward short-cuts an empty incoming gradient (an empty broadcast output, e.g.
x (0, 3) times y (3,)) by returning `torch.zeros(shape, dtype=...)` made without `device=`, so on a GPU (or any
device other than the default) the gradient of y comes back on the CPU and autograd rejects it ("invalid
gradient ... expected device"). The text: x and y are tensors "that may broadcast against each other", and the
notebook "Runs on CPU or GPU"; reference semantics: `sum_to_size` keeps the input's device. Goes wrong on
x (0, 3), y (3,), both requiring grad, on a non-default device; every non-empty input and every CPU input is
right."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    "        x, y = ctx.saved_tensors\n",
    "        x, y = ctx.saved_tensors\n"
    "        if grad_out.numel() == 0:  # nothing flows back: zero gradients of the inputs' shapes\n"
    "            gx = torch.zeros(x.shape, dtype=x.dtype) if ctx.needs_input_grad[0] else None\n"
    "            gy = torch.zeros(y.shape, dtype=y.dtype) if ctx.needs_input_grad[1] else None\n"
    "            return gx, gy, None\n"))}
