"""Known-wrong blocked_attention (round 29): for is_causal=True with a scale of 0 or below (the case the
text singles out) it builds the boolean mask the text names, torch.ones(L, S, dtype=torch.bool).tril(), whole,
and slices a tile of it per step; every other case tiles as the reference. Values and gradients are right.
The text: "never creates a tensor with L * S or more elements: nothing as large as the full score matrix of
even one head" (goes wrong on is_causal=True with scale=0.0 or -0.8: an L x S tensor is created)."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("        if is_causal:\n",
     "        if is_causal and scale <= 0:  # the boolean mask the text names, a tile of it per step\n"
     "            tri = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n"
     "            s = s.masked_fill(~tri[:, start:stop], float(\"-inf\"))\n"
     "        elif is_causal:\n"))}
EXPECT = {"blocked": "fail"}
