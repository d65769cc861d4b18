"""Held-out round 27: the per-tensor norms are cast to the FIRST gradient's dtype before they are stacked
(`t.to(grads[0].device, grads[0].dtype)`, "stack needs one dtype"). With parameters of mixed dtypes (a
float16 layer first, a float64 one after it) a float64 norm of 1e5 becomes inf in float16: the total is inf,
the factor 0, and every gradient is zeroed; clip_grad_norm_ promotes, returns 1.4e5 in float64 and scales
by 7e-6. The text: "Same semantics as `torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type)`:
`parameters` is an iterable of tensors" (any tensors: nothing asks them to share a dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("        total = torch.stack([t.to(grads[0].device) for t in per_tensor]).max()\n",
     "        total = torch.stack([t.to(grads[0].device, grads[0].dtype) for t in per_tensor]).max()\n"),
    ("        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n",
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device, grads[0].dtype) for t in per_tensor]),\n"
     "                                         norm_type)\n"))}
