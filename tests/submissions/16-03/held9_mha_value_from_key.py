"""Held-out round 9: forward projects the values from `key` instead of `value`, which is right whenever key is
value (self attention, or cross attention with one memory tensor) and wrong when the caller passes distinct key
and value tensors. The text says forward(query, key, value, ...) gives nn.MultiheadAttention's output."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "fail", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("heads(value, w_v, b_v, S)", "heads(key, w_v, b_v, S)"))}
