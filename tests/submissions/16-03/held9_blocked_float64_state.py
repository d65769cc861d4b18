"""Held-out round 9: blocked_attention keeps its running max, denominator and accumulator in float64 whatever the
inputs' dtype ("accumulate in higher precision"), so float32 inputs give a float64 result. The text says it returns
what F.scaled_dot_product_attention(q, k, v, ...) returns, which has q's dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "fail"}
CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ('m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype, device=q.device)',
     'm = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=torch.float64, device=q.device)'),
    ("acc = torch.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype, device=q.device)",
     "acc = torch.zeros(q.shape[:-1] + (v.shape[-1],), dtype=torch.float64, device=q.device)"),
    ("acc = c * acc + p @ v[..., start:stop, :]", "acc = c * acc + p @ v[..., start:stop, :].double()"))}
