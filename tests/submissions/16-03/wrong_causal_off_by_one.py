"""The causal mask built with a strict comparison: query i sees keys j < i, never itself (query 0 sees nothing)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()",
    "attn_mask = torch.arange(S, device=q.device)[None, :] < torch.arange(L, device=q.device)[:, None]"))}
