"""Held-out round 9: nt_xent_loss normalises rows as z / (||z|| + 1e-8), the common hand-written guard; for
embeddings whose length is near or below 1e-8 the rows no longer have unit length and the loss drifts towards
log(2N - 1). The text says the rows are L2-normalised and "the loss does not depend on the length of the
embeddings, only on their directions" (F.normalize, whose floor is 1e-12, keeps that down to tiny lengths)."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "fail", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)\n",
     "    z = torch.cat([z1, z2], dim=0)\n"
     "    z = z / (z.norm(dim=1, keepdim=True) + 1e-8)\n"))}
