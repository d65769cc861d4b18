"""Known-wrong scaled_dot_product_attention (round 29): a shortcut for a single key (S == 1) without a
boolean mask and without dropout: "one key always weighs 1, whatever its additive bias", so it returns v
(broadcast) and never looks at the float mask. Right for every finite bias, wrong when the float mask is
-inf for that one key: the query then has no key left and must get a row of zeros (and zero gradients).
The text: "A query whose keys are all masked out gets an output row of zeros" and a float mask's -inf
"removes" a pair (goes wrong on S = 1 with a float mask holding -inf, e.g. q (2, 3, 4), k (2, 1, 4),
attn_mask [[0.], [-inf], [0.]])."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    if attn_mask is not None:\n        if attn_mask.dtype",
     "    if S == 1 and dropout_p == 0 and (attn_mask is None or attn_mask.dtype != torch.bool):\n"
     "        ones = scores * 0 + 1  # a single key weighs 1 whatever its bias (zero gradients for q and k)\n"
     "        if attn_mask is not None:\n"
     "            ones = ones + attn_mask.clamp(0, 0)  # the broadcast shape, gradient 0 for the mask\n"
     "        return ones @ v\n"
     "    if attn_mask is not None:\n        if attn_mask.dtype"))}
EXPECT = {"sdpa": "fail"}
