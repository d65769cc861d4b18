"""Known-wrong pipeline_grads (held-out round 17): rank 1's receive buffer takes the targets' dtype when they are
floating point (class labels get the parameters' dtype), so float32 targets for a float64 model give a float32
buffer for float64 activations ("x and y may have other dtypes than the stages"; "a buffer that receives
activations or their gradients is in the parameters' dtype, whatever the dtypes of x and y")."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)\n",
    "            h = chunks[m].new_empty((len(chunks[m]), width),\n"
    "                                    dtype=chunks[m].dtype if chunks[m].is_floating_point() else dtype)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
