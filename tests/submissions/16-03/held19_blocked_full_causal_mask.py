"""Known-wrong blocked_attention (held-out round 19, the causal mask's size): the tiles of scores are right,
but with is_causal=True the whole (L, S) boolean mask torch.ones(L, S).tril() is built once up front (section
1's recipe) and sliced per tile. Values and gradients are right; the mask has L * S elements, where the text
says the function never creates a tensor with L * S or more elements, nothing as large as one head's scores."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("    rows = torch.arange(L, device=q.device)[:, None]",
     "    allowed = torch.ones(L, S, dtype=torch.bool, device=q.device).tril() if is_causal else None"),
    ("            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))",
     "            s = s.masked_fill(~allowed[:, start:stop], float(\"-inf\"))"))}
EXPECT = {"blocked": "fail"}
