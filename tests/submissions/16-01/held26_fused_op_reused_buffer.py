"""Round 26 (held out): the operator's kernel writes into an output buffer cached per (shape, strides, dtype,
device) and returns it, to save an allocation per call. Each value is right when read at once, but a second call on an
input of the same shape overwrites the first call's result (and the two outputs are one tensor, so a backward
through the first reaches the second call's x). Breaks "returns gelu(x) * keep / (1 - p) ... as a new tensor laid out
like torch.empty_like(x)": y1 = gelu_dropout_op(x1, keep, p); y2 = gelu_dropout_op(x2, keep, p) leaves y1 equal to
y2."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "@torch.library.custom_op(\"c1601::gelu_dropout_op\", mutates_args=())\n",
    "_OUT = {}  # one output buffer per layout, reused across calls\n\n\n"
    "@torch.library.custom_op(\"c1601::gelu_dropout_op\", mutates_args=())\n"), (
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n",
    "    key = (tuple(x.shape), x.stride(), x.dtype, x.device)\n"
    "    out = _OUT.get(key)\n"
    "    if out is None:\n"
    "        out = _OUT[key] = torch.empty_like(x)\n"
    "    torch.div(F.gelu(x, approximate=\"tanh\") * keep, 1 - p, out=out)\n"
    "    return out\n"))}
