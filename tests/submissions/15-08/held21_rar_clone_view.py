"""Wrong: "any memory layout (it may be non-contiguous)". This version copies x with `x.clone().view(-1)`.
clone() keeps the strides of a dense non-contiguous tensor (a transpose), and .view(-1) refuses those
strides, so a transposed x raises; a sliced x (not dense) is cloned contiguous and passes."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    flat = x.clone().view(-1)\n"))}
