"""Scales every head's scores by 1/sqrt(embed_dim), the model width, instead of 1/sqrt(embed_dim / num_heads), the
width of the vectors each head multiplies: right only with one head."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "F.scaled_dot_product_attention(q, k, v, attn_mask=bias)",
    "F.scaled_dot_product_attention(q, k, v, attn_mask=bias, scale=1.0 / math.sqrt(e))"))}
