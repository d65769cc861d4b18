"""Gap round (issue 39), "devices": the bottom-right causal mask is built from aranges without device=, so decoding
with inputs on a GPU (or the meta stand-in) raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"kv_cache": "fail"}
CELLS = {"kv_impl": edited("16-03", "kv_impl", (
    "seen = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]",
    "seen = torch.arange(past + t)[None, :] <= past + torch.arange(t)[:, None]"))}
