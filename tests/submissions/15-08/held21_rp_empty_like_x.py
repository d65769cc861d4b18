"""Wrong: "`x` may be non-contiguous" and "Make every tensor you create on `x`'s device
(`torch.empty_like(x)`, ...)". This version follows the hint literally: it sends `x.contiguous()` but
receives into `torch.empty_like(x)`, which keeps x's strides. For a transposed (permuted) x that buffer
is not contiguous, and gloo refuses to receive into it; a sliced x (not dense) happens to get a
contiguous buffer and passes."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    incoming = torch.empty_like(outgoing)\n",
     "    incoming = torch.empty_like(x)\n"))}
