"""Wrong: "returns what F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale) returns,
within ... 1e-4 in float32". For accuracy this version moves q, k and v to float64 and never casts back:
the values are close, but float32 inputs get a float64 result (PyTorch's has q's dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("    L, S = q.shape[-2], k.shape[-2]\n",
     "    q, k, v = q.double(), k.double(), v.double()\n    L, S = q.shape[-2], k.shape[-2]\n"))}
