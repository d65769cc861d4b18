# Rank 1 calls loss_fn(y_m, out) instead of loss_fn(out, y_m): the same for MSE, wrong for any
# loss that is not symmetric.
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "loss_fn(stage(h), chunks[m])",
    "loss_fn(chunks[m], stage(h))"))}
