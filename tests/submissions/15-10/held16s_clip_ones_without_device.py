"""Known-wrong clip_grad_norm (round 16, strengthening): the factor is torch.minimum(torch.ones(1), ...), a
constant made without device=. On a GPU (the Trainer's device=) the one sits on the CPU and mixing it with
the CUDA norm raises; the gradient checks on the default device never see it (caught on the stand-in
device)."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_impl": edited("15-10", "clip_impl", (
    "        coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n",
    "        coef = torch.minimum(torch.ones(1, dtype=total.dtype), max_norm / (total + 1e-6))\n"))}
EXPECT = {"clipping": "fail"}
