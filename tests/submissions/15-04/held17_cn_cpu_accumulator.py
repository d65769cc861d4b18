"""Held-out round 17: the p-th powers of the per-gradient norms are summed in place into a float64
accumulator torch.zeros((), dtype=torch.float64) built without device=, a CPU tensor: on a GPU `total += ...`
of a CUDA norm into that CPU tensor raises, and on other devices the CPU total never sees the gradients. The
text: "Same semantics as `torch.nn.utils.clip_grad_norm_`" (which runs where the gradients are), and the
notebook calls it on a model on `DEVICE` in section 6."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]\n"
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n",
     "        total = torch.zeros((), dtype=torch.float64)   # accumulate in double precision\n"
     "        for g in grads:\n"
     "            total += torch.linalg.vector_norm(g.detach(), norm_type).double() ** norm_type\n"
     "        total = (total ** (1.0 / norm_type)).to(grads[0].dtype)\n"))}
