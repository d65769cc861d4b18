"""Known-wrong scaled_dot_product_attention (round 14s, the fully-masked-rows row read in float64 only): a
softmax by hand whose denominator is clamped to 1e-30 so that a row with no key left gives 0 / 1e-30 = 0.
Right in float32 and float64 (values and gradients); in float16 1e-30 rounds to 0, so such a row is 0 / 0 =
NaN, where the text asks for zeros in the dtype of q (float16 included), as PyTorch returns."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    dead = torch.isneginf(scores).all(dim=-1, keepdim=True)  # rows with no key left\n"
     "    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)",
     "    m = scores.amax(dim=-1, keepdim=True)\n"
     "    e = torch.exp(scores - torch.where(torch.isneginf(m), torch.zeros_like(m), m))  # no key left: all 0\n"
     "    w = e / e.sum(dim=-1, keepdim=True).clamp_min(1e-30)  # 0 / 1e-30 = 0 for a row with no key"))}
EXPECT = {"sdpa": "fail"}
