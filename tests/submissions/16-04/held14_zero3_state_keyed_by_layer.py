"""Known-wrong zero3_step (held-out round 14): keeps each layer's moments and step count under the Layer object as
the key of state instead of its position, so a model that uses one Layer object twice (two blocks of one kind,
each with its own shard) shares one set of moments and one step count between them ("the step counts and the
moments of this rank's shards", one per layer)."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "state.setdefault(i, {})", "state.setdefault(layers[i], {})"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
