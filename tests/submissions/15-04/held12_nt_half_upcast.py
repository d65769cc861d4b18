"""Held-out round 12: half-precision embeddings are computed in float32 "for stability" and the loss is
returned in float32. The docstring: "Returns a 0-dim tensor in the dtype of z1 and z2" (float16 and
bfloat16 inputs give a float32 loss here)."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)",
     "z = torch.cat([z1, z2], dim=0)\n    if z.dtype in (torch.float16, torch.bfloat16):\n"
     "        z = z.float()\n    z = F.normalize(z, dim=1)"))}
