"""Held-out round 23, a correct answer written differently: the self-similarity is not masked but removed.
The flattened 2N x 2N matrix without its first entry, viewed as (2N - 1, 2N + 1) with its last column
dropped and reshaped to (2N, 2N - 1), is every row without its diagonal entry; the partner's column shifts
by one where it lies right of the diagonal (i + N - 1 for i < N, i - N otherwise), and the loss is
F.cross_entropy over the reduced rows."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "pass"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("    eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)\n"
     "    sim = sim.masked_fill(eye, float(\"-inf\"))\n"
     "    rows = torch.arange(2 * n, device=z.device)\n"
     "    partner = (rows + n) % (2 * n)\n"
     "    log_prob_pos = sim[rows, partner] - torch.logsumexp(sim, dim=1)\n"
     "    return -log_prob_pos.mean()\n",
     "    m = 2 * n                                   # drop the diagonal without a mask:\n"
     "    others = sim.flatten()[1:].view(m - 1, m + 1)[:, :-1].reshape(m, m - 1)\n"
     "    rows = torch.arange(2 * n, device=z.device)\n"
     "    target = torch.where(rows < n, rows + n - 1, rows - n)\n"
     "    return F.cross_entropy(others, target)\n"))}
