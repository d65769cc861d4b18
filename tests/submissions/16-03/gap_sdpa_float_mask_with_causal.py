"""Gap round (issue 39), "Passing both attn_mask and is_causal=True raises ValueError": raises only for a boolean
mask; a float mask is silently added on top of the causal triangle."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "    if attn_mask is not None and is_causal:\n        raise ValueError",
    "    if attn_mask is not None and attn_mask.dtype == torch.bool and is_causal:\n        raise ValueError"), (
    "        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()",
    "        causal = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n"
    "        attn_mask = causal if attn_mask is None else attn_mask.masked_fill(~causal, float(\"-inf\"))"))}
