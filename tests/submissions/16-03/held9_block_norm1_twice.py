"""Held-out round 9: the feed-forward step normalises with norm1 instead of norm2. With freshly built LayerNorms
(weight 1, bias 0, same eps) the two are the same function, so only a state dict whose norm2 differs from norm1
shows it. The text says x = x + linear2(activation(linear1(norm2(x)))), equal to nn.TransformerEncoderLayer with
the same state dict."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "fail", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"block_impl": edited(
    "16-03", "block_impl",
    ("self.linear1(self.norm2(x))", "self.linear1(self.norm1(x))"))}
