"""Gap round (issue 39), "devices": the causal mask is built without device=, so it lands on the CPU; on a GPU
(and on the meta stand-in) masked_fill with a CPU mask of the scores raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()",
    "attn_mask = torch.ones(L, S, dtype=torch.bool).tril()"))}
