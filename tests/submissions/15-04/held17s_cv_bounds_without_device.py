"""Held-out round 17, contract walk (not counted): the bounds are built as full tensors with torch.full(shape,
...) and no device=, so on a GPU torch.minimum / torch.maximum mix a CUDA gradient with a CPU tensor and raise.
The text: "It runs where the gradients are (CPU or GPU)"; every check ran it on the CPU only."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_value": "fail"}
CELLS = {"clip_value_impl": edited(
    "15-04", "clip_value_impl",
    ("            p.grad.detach().clamp_(min=-clip_value, max=clip_value)\n",
     "            bound = torch.full(p.grad.shape, clip_value, dtype=p.grad.dtype)\n"
     "            p.grad.copy_(torch.maximum(torch.minimum(p.grad, bound), -bound))\n"))}
