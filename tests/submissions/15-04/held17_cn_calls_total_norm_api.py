"""Held-out round 17: clip_grad_norm is assembled from PyTorch's own halves of clip_grad_norm_,
torch.nn.utils.get_total_norm and torch.nn.utils.clip_grads_with_norm_ (public since PyTorch 2.6). The numbers
are PyTorch's, but the text says: "The point is to write it yourself: the grader compares your function with
`torch.nn.utils.clip_grad_norm_`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    grads = [p.grad for p in parameters if p.grad is not None]\n"
     "    if not grads:\n"
     "        return torch.tensor(0.0)\n"
     "    norm_type = float(norm_type)\n"
     "    if norm_type == math.inf:\n"
     "        per_tensor = [g.detach().abs().max() for g in grads]\n"
     "        total = torch.stack([t.to(grads[0].device) for t in per_tensor]).max()\n"
     "    else:\n"
     "        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]\n"
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n"
     "    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"
     "    with torch.no_grad():\n"
     "        for g in grads:\n"
     "            g.mul_(coef.to(g.device, g.dtype))\n"
     "    return total\n",
     "    from torch.nn.utils import clip_grads_with_norm_, get_total_norm\n"
     "    params = [p for p in parameters if p.grad is not None]\n"
     "    if not params:\n"
     "        return torch.tensor(0.0)\n"
     "    total = get_total_norm([p.grad for p in params], float(norm_type))\n"
     "    clip_grads_with_norm_(params, max_norm, total)\n"
     "    return total\n"))}
