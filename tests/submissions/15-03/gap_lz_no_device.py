"""Known-wrong prepare_lazy (gap round): casts the model to example's dtype but never moves it to
example's device, so a model on the CPU meets a GPU batch in the dry run ("moves and casts the model to
example's device and dtype")."""
from course.grading.class_run.submissions import edited

CELLS = {"lazy_impl": edited("15-03", "lazy_impl",
    ("    model.to(device=example.device, dtype=example.dtype)", "    model.to(dtype=example.dtype)"))}
EXPECT = {"lazy": "fail"}
