"""Gap round (issue 39), "draw u = torch.rand(..., device=w.device)": the dropout draw leaves out device=, so u
is a CPU tensor and the weights on a GPU (or the meta stand-in) cannot be multiplied by it."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)",
    "u = torch.rand(w.shape, generator=generator, dtype=w.dtype)"))}
