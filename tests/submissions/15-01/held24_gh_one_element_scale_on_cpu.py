"""Round 24 (held out): attach_grad_clipping builds the scale from a one-element tensor made with the
gradient's dtype but without device=: (torch.tensor([max_norm], dtype=p.grad.dtype) / norm).reshape(()).
On the CPU every value is right; with the parameters on a GPU the (1,)-shaped CPU tensor divided by the
0-dim CUDA norm raises a device RuntimeError inside backward whenever a gradient needs clipping (the
notebook "Runs on CPU or GPU" and its training demo attaches clipping to a model on DEVICE). Breaks
"registers, on every parameter that requires a gradient, a post-accumulate-grad hook that rescales
param.grad in place" for parameters off the CPU."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "            p.grad.mul_(max_norm / norm)",
    "            p.grad.mul_((torch.tensor([max_norm], dtype=p.grad.dtype) / norm).reshape(()))"))}
