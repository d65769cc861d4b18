"""Held-out round 20: the total norm is (sum over tensors of sum |g|^p) ** (1/p), computed in the gradients'
dtype; in float16 every |g| above 256 squares to inf, so gradients of 300 give an infinite total and are all
scaled to 0, where clip_grad_norm_ (its per-tensor norms accumulate in float32) returns a finite norm and
scales them. The text: "Same semantics as `torch.nn.utils.clip_grad_norm_`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]\n"
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n",
     "        total = sum(g.detach().abs().pow(norm_type).sum().to(grads[0].device) for g in grads)\n"
     "        total = total ** (1.0 / norm_type)\n"))}
