"""Known-wrong blocked_attention (round 12): the scores are computed a tile at a time, but the causal mask is
built once as a full (L, S) boolean matrix and sliced per tile: a tensor with L * S elements, which the text
forbids ("never creates a tensor with L * S or more elements")."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("rows = torch.arange(L, device=q.device)[:, None]",
     "allowed = torch.ones(L, S, dtype=torch.bool, device=q.device).tril() if is_causal else None"),
    ("s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))",
     "s = s.masked_fill(~allowed[:, start:stop], float(\"-inf\"))"))}
EXPECT = {"blocked": "fail"}
