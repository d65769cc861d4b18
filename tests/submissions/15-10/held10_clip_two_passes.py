"""Held-out round 10: clip_grad_norm walks `parameters` twice, once to measure the norms and once to rescale;
given a generator such as model.parameters() the second walk finds nothing, so the norm is returned but no
gradient is clipped. The text says `parameters` is an iterable of tensors (the docstring: "an iterable"), and
torch.nn.utils.clip_grad_norm_, the reference, clips what model.parameters() yields."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("    grads = [p.grad for p in parameters if p.grad is not None]\n    if not grads:",
     "    if not any(p.grad is not None for p in parameters):"),
    ("        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])",
     "        norms = torch.stack([torch.linalg.vector_norm(p.grad.detach(), 2) for p in parameters\n"
     "                             if p.grad is not None])"),
    ("        for g in grads:\n            g.mul_(coef.to(device=g.device, dtype=g.dtype))",
     "        for p in parameters:\n            if p.grad is not None:\n"
     "                p.grad.mul_(coef.to(device=p.grad.device, dtype=p.grad.dtype))"))}
