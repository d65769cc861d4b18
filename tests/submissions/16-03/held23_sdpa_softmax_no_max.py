"""Known-wrong scaled_dot_product_attention (round 23): the softmax is written by hand without subtracting
the row maximum, `e = exp(scores); w = e / e.sum(-1).clamp_min(tiny)`; the clamp gives zeros and zero
gradients for a row with no key left, and float64 is fine up to scores of 700. In float32 a score above 88
(float16: above 11) overflows to inf and the row becomes NaN, where the text asks for PyTorch's values in q's
dtype (float16 included)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    dead = torch.isneginf(scores).all(dim=-1, keepdim=True)  # rows with no key left\n"
     "    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)\n",
     "    e = torch.exp(scores)\n"
     "    w = e / e.sum(dim=-1, keepdim=True).clamp_min(torch.finfo(e.dtype).tiny)\n"))}
EXPECT = {"sdpa": "fail"}
