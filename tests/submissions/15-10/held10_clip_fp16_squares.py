"""Held-out round 10: clip_grad_norm adds up squared entries in the gradients' own dtype and takes one square
root, sqrt(sum(g.pow(2).sum())); for float16 gradients of a few hundred the squares pass float16's 65504 and
the total becomes inf, so every gradient is multiplied by 0. The text defines the total as the L2 norm of the
per-tensor L2 norms and names torch.nn.utils.clip_grad_norm_ as the reference, which returns the finite norm
(about 950 for ten entries of 300) and scales the gradients by max_norm / total."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])\n"
     "        total = torch.linalg.vector_norm(norms, 2)",
     "        total = sum(g.detach().pow(2).sum() for g in grads).sqrt()"))}
