"""Wrong: "`x` ... any memory layout (it may be non-contiguous)". This version copies x with
`torch.empty_like(x).copy_(x).view(-1)`: empty_like keeps a transposed (dense but permuted) x's strides, so
`view(-1)` raises for a transposed x, although a sliced x (x[:, ::2], whose empty_like is contiguous) works."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    flat = torch.empty_like(x).copy_(x).view(-1)\n"))}
