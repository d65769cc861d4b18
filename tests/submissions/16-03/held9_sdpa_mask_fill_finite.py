"""Held-out round 9: the boolean (and causal) mask fills excluded pairs with -1e9 instead of -inf, and a row counts
as having no key left when every score is <= -1e9. With scores far below -1e9 (large q and k, or a large scale)
the excluded keys get weight and rows that still have keys come out as zeros. The text says excluded pairs get a
score of -inf, so their softmax weight is exactly 0, and only a query whose keys are all masked gets zeros."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail", "mha": "pass", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ('scores = scores.masked_fill(~attn_mask, float("-inf"))', "scores = scores.masked_fill(~attn_mask, -1e9)"),
    ("dead = torch.isneginf(scores).all(dim=-1, keepdim=True)", "dead = (scores <= -1e9).all(dim=-1, keepdim=True)"))}
