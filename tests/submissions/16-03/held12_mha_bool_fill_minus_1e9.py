"""Known-wrong MultiHeadAttention (round 12): a True in a boolean attn_mask or key_padding_mask adds -1e9 to
the score instead of -inf. With the other mask a float one whose values on the kept pairs are below -1e9
(a float mask "is added to the scores", any values), the pair the boolean mask removes wins the softmax:
"both apply" and "True marks a key to ignore" fail."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("attn_mask.reshape(n, h, L, S)\n            bias = bias.masked_fill(m, float(\"-inf\"))",
     "attn_mask.reshape(n, h, L, S)\n            bias = bias.masked_fill(m, -1e9)"),
    ("key_padding_mask[:, None, None, :]\n            bias = bias.masked_fill(m, float(\"-inf\"))",
     "key_padding_mask[:, None, None, :]\n            bias = bias.masked_fill(m, -1e9)"))}
EXPECT = {"mha": "fail"}
