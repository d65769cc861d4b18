"""Wrong (held-out round 28): with no gradient at all clip_grad_norm returns torch.tensor(0), an int64 tensor.
Docstring: "Returns the total norm before clipping as a 0-dim tensor (0.0 if no parameter has a gradient)": a
floating zero, as torch.nn.utils.clip_grad_norm_ returns (torch.tensor(0.)). Input: clip_grad_norm([p], 1.0)
with p.grad None: dtype torch.int64 (expected a floating dtype, float32)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        return torch.tensor(0.0)\n", "        return torch.tensor(0)\n"))}
