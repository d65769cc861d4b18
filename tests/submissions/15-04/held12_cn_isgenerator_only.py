"""Held-out round 12: only a generator is turned into a list (`inspect.isgenerator`). Any other one-shot
iterator, such as `filter(lambda p: p.requires_grad, model.parameters())`, `map(...)` or `iter(params)`, is
consumed by the norm pass, so the scaling loop sees nothing: the norm is returned and no gradient is
clipped. The text: "`parameters` is an iterable of tensors (possibly a generator)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    if isinstance(parameters, torch.Tensor):\n        parameters = [parameters]\n"
     "    grads = [p.grad for p in parameters if p.grad is not None]\n    if not grads:",
     "    import inspect\n    if isinstance(parameters, torch.Tensor):\n        parameters = [parameters]\n"
     "    elif inspect.isgenerator(parameters):\n        parameters = list(parameters)\n"
     "    grads = (p.grad for p in parameters if p.grad is not None)\n    grads_for_norm = list(grads)\n"
     "    grads = [p.grad for p in parameters if p.grad is not None]\n    if not grads_for_norm:"),
    ("    per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]",
     "    per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads_for_norm]"),
    ("        per_tensor = [g.detach().abs().max() for g in grads]",
     "        per_tensor = [g.detach().abs().max() for g in grads_for_norm]"),
    ("total = torch.stack([t.to(grads[0].device) for t in per_tensor]).max()",
     "total = torch.stack([t.to(grads_for_norm[0].device) for t in per_tensor]).max()"),
    ("total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)",
     "total = torch.linalg.vector_norm(torch.stack([t.to(grads_for_norm[0].device) for t in per_tensor]), norm_type)"))}
