"""Held-out round 20: the function delegates to torch.nn.utils.clip_grad_norm (the deprecated name without
the underscore), which is a thin wrapper around clip_grad_norm_. The text: "The point is to write it yourself:
do not call `torch.nn.utils.clip_grad_norm_` or its two halves"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    norm_type = float(norm_type)\n",
     "    return torch.nn.utils.clip_grad_norm(grads_params, max_norm, norm_type)\n"),
    ("    grads = [p.grad for p in parameters if p.grad is not None]\n",
     "    grads_params = [p for p in parameters if p.grad is not None]\n"
     "    grads = [p.grad for p in grads_params]\n"))}
