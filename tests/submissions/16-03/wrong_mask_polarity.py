"""The boolean mask read with nn.MultiheadAttention's convention (True = hide) instead of
F.scaled_dot_product_attention's (True = takes part): every allowed pair is removed and every forbidden one kept."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", ("scores.masked_fill(~attn_mask,", "scores.masked_fill(attn_mask,"))}
