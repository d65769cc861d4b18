"""Held-out round 14: the p-norm is written out as (sum of |g|^p)^(1/p) in the gradients' own dtype; float16
gradients of a few hundred overflow |g|^2 to inf, the total becomes inf and every gradient is scaled to 0
(clip_grad_norm_ returns 600 and scales to norm 1). The text: "Same semantics as
`torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]\n"
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n",
     "        # ||g||_p = (sum over every entry of |g|^p)^(1/p)\n"
     "        total = sum((g.detach().abs() ** norm_type).sum().to(grads[0].device) for g in grads) ** (1.0 / norm_type)\n"))}
