"""Held-out round 28 (15-03 skipmlp): flattens only 3-D and 4-D batches.

The text: "if `x` has more than 2 dimensions (a batch of images `(N, C, H, W)`), flatten everything but the
batch dimension first". This forward tests `x.dim() in (3, 4)` instead of `x.dim() > 2`, so a 5-D batch
(volumes, `(N, C, D, H, W)`, e.g. SkipMLP(24, [6], 3) on a (2, 1, 2, 3, 4) batch) reaches the first
LayerNorm/Linear unflattened and raises (or, with a matching last size, gives a wrong shape).
"""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "fail"}

CELLS = {
    "skipmlp_impl": edited("15-03", "skipmlp_impl",
                           ("        if x.dim() > 2:\n", "        if x.dim() in (3, 4):\n")),
}
