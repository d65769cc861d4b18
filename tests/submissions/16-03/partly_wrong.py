"""Three realistic mistakes in different tasks; the other tasks keep the reference solution.

- scaled_dot_product_attention reads the boolean mask as "True = hide" (nn.MultiheadAttention's convention);
- PreNormBlock normalises after each residual addition (post-norm);
- CausalSelfAttention asks F.scaled_dot_product_attention for is_causal=True also with a cache (top-left triangle).
"""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail", "block": "fail", "kv_cache": "fail", "mha": "pass", "embed": "pass", "blocked": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "sdpa_impl": edited("16-03", "sdpa_impl", ("scores.masked_fill(~attn_mask,", "scores.masked_fill(attn_mask,")),
    "block_impl": edited("16-03", "block_impl", (
        """        h = self.norm1(src)
        x = src + self.self_attn(h, h, h, key_padding_mask=src_key_padding_mask, attn_mask=src_mask)
        return x + self.linear2(self.activation(self.linear1(self.norm2(x))))""",
        """        x = self.norm1(src + self.self_attn(src, src, src, key_padding_mask=src_key_padding_mask,
                                            attn_mask=src_mask))
        return self.norm2(x + self.linear2(self.activation(self.linear1(x))))""")),
    "kv_impl": edited("16-03", "kv_impl", ("out = F.scaled_dot_product_attention(q, k, v, attn_mask=seen)",
                                           "out = F.scaled_dot_product_attention(q, k, v, is_causal=True)")),
}
