"""Round 22: attach_grad_clipping's hook builds the scale from torch.tensor([max_norm]), a one-element tensor
made on the CPU in float32 (no device=, no dtype=), clamped to at most 1: with parameters on a GPU the division
by the GPU norm raises (the notebook "Runs on CPU or GPU", and the training demo attaches clipping to a model
on DEVICE), and for a float64 model the scale is rounded to float32 ("multiply by max_norm / norm")."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    """        norm = p.grad.norm()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)""",
    """        norm = p.grad.norm()
        p.grad.mul_(torch.clamp(torch.tensor([max_norm]) / norm, max=1.0))"""))}
