"""Held-out round 29: the self-similarity is masked by VALUE, not by position: every entry that reaches
the row's diagonal value (`sim >= sim.diagonal()[:, None]`) is set to -inf. On random views only the
diagonal qualifies, but with two identical views (z2 = z1.clone(), or any duplicated row) the partner is
masked too and the loss is inf/nan instead of F.cross_entropy's finite value. The text: "each of the 2N
embeddings is classified against the other 2N - 1 (never itself) with its partner as the target"."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("    eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)\n",
     "    eye = sim >= sim.diagonal().unsqueeze(1)\n"))}
