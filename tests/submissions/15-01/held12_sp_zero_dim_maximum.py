"""StableSoftplus takes max(x, 0) against a one-element zeros tensor: for a 0-dim x the output has shape
(1,), not x's shape () (F.softplus returns x's shape; the task says "match F.softplus")."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl",
                                 ("return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))",
                                  "return torch.maximum(x, torch.zeros(1, dtype=x.dtype))"
                                  " + torch.log1p(torch.exp(-x.abs()))"))}
