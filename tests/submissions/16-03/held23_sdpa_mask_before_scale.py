"""Known-wrong scaled_dot_product_attention (round 23): the boolean mask (and the causal triangle) is written
into the raw dot products and the scale is applied afterwards, `(q @ k^T).masked_fill(~mask, -inf) * scale`.
For a positive scale nothing changes; for a scale of 0 a masked pair becomes -inf * 0 = NaN and for a negative
scale it becomes +inf, where the text says the scores are `q @ k^T` times `scale` (any number, zero or
negative too) and a masked pair gets a score of -inf, weight exactly 0."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    scores = (q @ k.transpose(-2, -1)) * scale\n", "    scores = q @ k.transpose(-2, -1)\n"),
    ("    dead = torch.isneginf(scores)",
     "    scores = scores * scale  # scale last\n    dead = torch.isneginf(scores)"))}
EXPECT = {"sdpa": "fail"}
