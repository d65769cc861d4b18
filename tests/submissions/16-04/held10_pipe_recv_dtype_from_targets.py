"""Held-out round 10: on rank 1 pipeline_grads makes the activation buffer with y_m.new_empty((rows, width)),
in the targets' dtype rather than the stage's; it works while the targets share the parameters' dtype and
breaks for integer class labels. The text says stage 0's activations are "in the parameters' dtype", and
loss_fn(out, y_m) is any mean loss over the rows."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "fail"}
CELLS = {"pipeline_impl": edited(
    "16-04", "pipeline_impl",
    ("h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)",
     "h = chunks[m].new_empty((len(chunks[m]), width))"))}
