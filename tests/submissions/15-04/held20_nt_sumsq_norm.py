"""Held-out round 20: rows are normalised by sqrt((z * z).sum(1)) computed in the input dtype; in float16 an
entry above 256 squares to inf, so a row of length a few hundred becomes all zeros (and a tiny row's squares
underflow to 0, so it is divided by the clamp) and the loss is wrong. The text: "L2-normalise each row";
"the loss does not depend on the length of the embeddings, only on their directions"; "in the dtype of z1
and z2" (half precision is a dtype the grader uses)."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)\n",
     "    z = torch.cat([z1, z2], dim=0)\n"
     "    z = z / (z * z).sum(dim=1, keepdim=True).sqrt().clamp_min(1e-12)\n"))}
