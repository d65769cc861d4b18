"""Known-wrong blocked_attention (round 25): the running max, denominator and accumulator are kept in
float64 "for accuracy" and the result is never cast back, so float32 inputs give a float64 result. The text
says it "returns what F.scaled_dot_product_attention(q, k, v, ...) returns", which is float32 for float32
inputs (goes wrong on any float32 q, k, v)."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("    m = torch.full(q.shape[:-1] + (1,), float(\"-inf\"), dtype=q.dtype, device=q.device)",
     "    m = torch.full(q.shape[:-1] + (1,), float(\"-inf\"), dtype=torch.float64, device=q.device)"),
    ("    acc = torch.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype, device=q.device)",
     "    acc = torch.zeros(q.shape[:-1] + (v.shape[-1],), dtype=torch.float64, device=q.device)"))}
EXPECT = {"blocked": "fail"}
