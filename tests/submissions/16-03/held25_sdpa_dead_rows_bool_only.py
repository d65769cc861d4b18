"""Known-wrong scaled_dot_product_attention (round 25): rows with no key left are found from the boolean
mask only (`~attn_mask.any(-1)`), so a float mask whose row is all -inf still gives softmax(-inf, ...) = NaN.
The text says "A query whose keys are all masked out gets an output row of zeros" and a float mask's -inf
"removes" a pair (goes wrong on a float mask with a row of -inf)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    dead = torch.isneginf(scores).all(dim=-1, keepdim=True)  # rows with no key left",
     "    if attn_mask is not None and attn_mask.dtype == torch.bool:\n"
     "        dead = ~attn_mask.any(dim=-1, keepdim=True)  # rows with no key left\n"
     "    else:\n"
     "        dead = torch.zeros((), dtype=torch.bool, device=q.device)"))}
EXPECT = {"sdpa": "fail"}
