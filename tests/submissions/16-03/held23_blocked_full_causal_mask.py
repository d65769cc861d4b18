"""Known-wrong blocked_attention (round 23): with is_causal=True the whole (L, S) boolean triangle is built
once before the loop and sliced per tile. Values and gradients are right, but it creates a tensor of L * S
elements, as large as one head's score matrix, where the text says the function never creates a tensor with
L * S or more elements."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("    rows = torch.arange(L, device=q.device)[:, None]\n",
     "    hidden = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(1) if is_causal else None\n"),
    ("            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))",
     "            s = s.masked_fill(hidden[:, start:stop], float(\"-inf\"))"))}
EXPECT = {"blocked": "fail"}
