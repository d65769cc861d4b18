"""Held-out round 9: activation="gelu" uses the tanh approximation of GELU. The text says "gelu" is the exact,
erf-based GELU, as nn.TransformerEncoderLayer(activation="gelu") uses."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "fail", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"block_impl": edited(
    "16-03", "block_impl",
    ('{"relu": F.relu, "gelu": F.gelu}[activation]',
     '{"relu": F.relu, "gelu": lambda t: F.gelu(t, approximate="tanh")}[activation]'))}
