"""Held-out round 12 (ring_all_reduce, "any memory layout (it may be non-contiguous)"): the flat working copy is
x.clone().view(-1). clone keeps a transposed x's strides (preserve_format), so view(-1) raises for a transposed
or permuted x; a sliced x (x[:, ::2]) clones to contiguous memory and works."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
BASE = "reference"
CELLS = {"ring_all_reduce_impl": edited("15-08", "ring_all_reduce_impl", (
    "flat = x.reshape(-1).clone()", "flat = x.clone().view(-1)",
))}
