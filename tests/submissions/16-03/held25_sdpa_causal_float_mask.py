"""Known-wrong scaled_dot_product_attention (round 25): with is_causal=True the causal mask is built as an
additive float mask, `torch.full((L, S), -inf, device=q.device).triu(1)`, in the default dtype (float32),
and goes through the float-mask branch. In float32 and float64 the values are exact, but for float16 inputs
the float32 mask promotes the scores to float32 and `w @ v` then mixes float32 and float16 and raises,
where the text says "the result has ... the dtype of q (float16 included)" (goes wrong on float16 q, k, v
with is_causal=True)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()",
     "        attn_mask = torch.full((L, S), float(\"-inf\"), device=q.device).triu(1)"))}
EXPECT = {"sdpa": "fail"}
