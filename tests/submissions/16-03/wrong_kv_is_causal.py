"""Lets F.scaled_dot_product_attention build the causal mask (is_causal=True) also with a cache: its triangle is
aligned at the top left, so a new token sees only the first cached positions."""
from course.grading.class_run.submissions import edited

EXPECT = {"kv_cache": "fail"}
CELLS = {"kv_impl": edited("16-03", "kv_impl", (
    "out = F.scaled_dot_product_attention(q, k, v, attn_mask=seen)",
    "out = F.scaled_dot_product_attention(q, k, v, is_causal=True)"))}
