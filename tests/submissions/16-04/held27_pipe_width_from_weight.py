"""Known-wrong pipeline_grads (held-out round 27): rank 1 sizes its receive buffer from its stage's first parameter
(next(stage.parameters()).shape[-1], the in_features of a leading nn.Linear) instead of the width argument. The text
says "pipeline_grads(stage, data, loss_fn, M, width)" and "stage 0 maps a micro-batch of r rows to contiguous
activations of shape (r, width)"; the stages are any nn.Modules. Input on which it goes wrong: a second stage whose
first parameter does not end in width: nn.Sequential(nn.Linear(6, 4), ...) fed width 6 works, a stage whose first
parameter is a learned scalar (a temperature, shape ()) or a vector of another length (a bias registered before the
weight) does not: an IndexError, or a buffer of the wrong shape."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)\n",
    "            h = chunks[m].new_empty((len(chunks[m]), next(stage.parameters()).shape[-1]), dtype=dtype)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
