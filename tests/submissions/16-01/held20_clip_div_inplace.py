"""Round 20 (held out): the kernel divides x in place to save a temporary (x.div_(limit)), then takes tanh
into a new tensor: the output is new and right, but the caller's x comes back divided by limit, against
'it leaves x unchanged'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    return limit * torch.tanh(x.div_(limit))\n"))}
