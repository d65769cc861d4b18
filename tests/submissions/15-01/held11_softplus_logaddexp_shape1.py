"""Wrong: "It must match F.softplus". This version writes the stable forward as
torch.logaddexp(x, torch.zeros(1, dtype=x.dtype)): right values, but the (1,)-shaped zero broadcasts a
0-dim input to shape (1,), so StableSoftplus.apply on a one-element 0-dim x returns a (1,) tensor where
F.softplus returns a 0-dim one."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited(
    "15-01", "softplus_impl",
    ("        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))\n",
     "        return torch.logaddexp(x, torch.zeros(1, dtype=x.dtype, device=x.device))\n"))}
