"""Known-wrong pipeline_grads (round 17's contract walk, not counted): rank 1 receives the activations into a
float64 buffer whatever the stages' dtype, right for every float64 model and wrong for a float32 one ("a buffer that
receives activations or their gradients is in the parameters' dtype, whatever the dtypes of x and y")."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)\n",
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=torch.float64)  # labels may be ints\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
