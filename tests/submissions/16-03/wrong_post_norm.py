"""The original paper's post-norm block, norm(x + sublayer(x)), where the text asks for pre-norm."""
from course.grading.class_run.submissions import edited

EXPECT = {"block": "fail"}
CELLS = {"block_impl": edited("16-03", "block_impl", (
    """        h = self.norm1(src)
        x = src + self.self_attn(h, h, h, key_padding_mask=src_key_padding_mask, attn_mask=src_mask)
        return x + self.linear2(self.activation(self.linear1(self.norm2(x))))""",
    """        x = self.norm1(src + self.self_attn(src, src, src, key_padding_mask=src_key_padding_mask,
                                            attn_mask=src_mask))
        return self.norm2(x + self.linear2(self.activation(self.linear1(x))))"""))}
