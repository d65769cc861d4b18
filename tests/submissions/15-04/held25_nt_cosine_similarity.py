"""Held-out round 25: the similarity matrix is F.cosine_similarity(z[:, None], z[None], dim=-1), whose
eps=1e-8 floors each norm, instead of F.normalize (eps=1e-12). For embeddings of length about 1e-10 (an
encoder output scaled down, float32 or float64) the similarities shrink towards 0 and the loss tends to
log(2N - 1) whatever the directions. The text: "L2-normalise each row, so that a dot product is a cosine
similarity" and "the loss does not depend on the length of the embeddings, only on their directions"."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)\n"
     "    sim = (z @ z.T) / temperature\n",
     "    z = torch.cat([z1, z2], dim=0)\n"
     "    sim = F.cosine_similarity(z[:, None, :], z[None, :, :], dim=-1) / temperature\n"))}
