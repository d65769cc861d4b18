"""Known-wrong scaled_dot_product_attention (round 27): its parameters come in F.scaled_dot_product_attention's
order, (q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, generator=None), not the task's
(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0, generator=None). Every keyword call is
right; a call by position such as scaled_dot_product_attention(q, k, v, None, True) asks for causal attention
and gets dropout with p = 1 (a division by zero) instead, and (q, k, v, None, False, 0.5) is a scale of 0.5
read as is_causal=0.5. The task's signature fixes the order (goes wrong on arguments passed by position)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0,\n"
     "                                 generator=None):",
     "def scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,\n"
     "                                 generator=None):"))}
EXPECT = {"sdpa": "fail"}
