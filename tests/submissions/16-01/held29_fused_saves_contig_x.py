"""Round 29 (held out): setup_context saves x.contiguous() ("the backward reads x in memory order") instead of x.
For a contiguous x that is x itself; for a transposed or strided x it is a full copy, which autograd keeps alive
beside the caller's x until the backward runs. The byte bound of the text (x's bytes plus one per element) still
holds, but the saved tensor is not x. Breaks "For the backward it saves only x and the boolean keep": on a
transposed (5, 6) x, the saved float tensor has another data_ptr than x (a 30-element copy)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    ctx.save_for_backward(x, keep)\n",
    "    ctx.save_for_backward(x.contiguous(), keep)  # the backward reads x in memory order\n"))}
