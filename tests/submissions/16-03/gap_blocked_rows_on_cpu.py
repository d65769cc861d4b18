"""Gap round (issue 39), "devices": the query positions for the causal test are an arange without device=, so
causal blocked attention raises for inputs on a GPU (or the meta stand-in)."""
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    "rows = torch.arange(L, device=q.device)[:, None]", "rows = torch.arange(L)[:, None]"), (
    "torch.arange(start, stop, device=q.device)[None, :] > rows", "torch.arange(start, stop)[None, :] > rows"))}
