"""Gap round (issue 39), "The masks follow nn.MultiheadAttention's conventions": given both an attn_mask and a
key_padding_mask, only the attn_mask is applied (the padding is forgotten); the block built on it forgets it too."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail", "block": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "        if key_padding_mask is not None:\n            m = key_padding_mask",
    "        elif key_padding_mask is not None:\n            m = key_padding_mask"))}
