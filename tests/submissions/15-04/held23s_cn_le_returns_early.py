"""Held-out round 23, second pass (not counted): clip_grad_norm returns early when the total norm is at most
max_norm ("nothing to clip"); clip_grad_norm_ applies min(1, max_norm / (total + 1e-6)) always, which is below 1
for a total norm in (max_norm - 1e-6, max_norm], so at a total norm of 0.95e-5 and max_norm 1e-5 PyTorch scales
the gradients by about 0.95 and this leaves them. (A nan total passes the test nan <= max_norm as False and is scaled,
as PyTorch does.) The text: "Scale all .grad tensors by min(1, max_norm / (total_norm + 1e-6))"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n",
     "    if total <= max_norm:                      # within bounds: nothing to clip\n"
     "        return total\n"
     "    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"))}
