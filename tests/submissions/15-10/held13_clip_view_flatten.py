"""Held-out round 13 (found after the blind count, while strengthening the clipping rows): the global norm
is taken over `torch.cat([g.view(-1) for g in grads])`. `view` needs compatible strides, so a gradient
whose memory is transposed (the gradient of a transposed or channels-last parameter) raises instead of
being clipped. The docstring: "parameters: an iterable of tensors" (any tensors, any layout)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])\n"
     "        total = torch.linalg.vector_norm(norms, 2)",
     "        total = torch.linalg.vector_norm(torch.cat([g.detach().view(-1) for g in grads]), 2)"))}
