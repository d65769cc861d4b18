"""Round 29 (held out): the kernel loads x with the mask but keep without it ("only the store needs the mask").
The values are right (lanes past n are never stored), but the last program reads keep past its end: up to
BLOCK - 1 bytes beyond the tensor, which on a GPU is an out-of-bounds access. Breaks "skips those at n or past it":
gelu_dropout_kernel on n = 5 with BLOCK = 16 reads keep_ptr + 5 ... keep_ptr + 15."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    keep = tl.load(keep_ptr + offs, mask=inside, other=0)\n",
    "    keep = tl.load(keep_ptr + offs)  # lanes past n are never stored\n"))}
