"""Held-out round 10: on rank 0 pipeline_grads makes the buffer for the received activation gradient from the
micro-batch of inputs, x_m.new_empty(shape), so it has the inputs' dtype; for integer inputs (token ids into an
nn.Embedding) that is not the activations' dtype. The text says stage 0 maps a micro-batch of rows to
activations "in the parameters' dtype", whatever the inputs are."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "fail"}
CELLS = {"pipeline_impl": edited(
    "16-04", "pipeline_impl",
    ("g = kept[m].new_empty(kept[m].shape)", "g = chunks[m].new_empty(kept[m].shape)"))}
