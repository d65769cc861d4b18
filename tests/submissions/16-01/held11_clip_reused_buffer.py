"""Held-out round 11: smooth_clip's kernel keeps one output buffer per (shape, strides, dtype, device) in a
module-level dict and writes every call's result into it (torch.div(..., out=buf), then tanh_ and mul_ in
place), to spare an allocation per call. Each result is right when it is read at once, but the second call
on a same-shaped input overwrites the first call's output (and the output autograd saved for it). The text
says "The output is a new tensor with x's shape, dtype and device and the strides of torch.empty_like(x)":
a buffer shared between calls is not a new tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited(
    "16-01", "clip_impl",
    ("@torch.library.custom_op(\"c1601::smooth_clip\"",
     "_CLIP_BUFFERS = {}\n\n\n@torch.library.custom_op(\"c1601::smooth_clip\""),
    ("    return limit * torch.tanh(x / limit)\n",
     "    key = (tuple(x.shape), x.stride(), x.dtype, x.device)\n"
     "    if key not in _CLIP_BUFFERS:\n"
     "        _CLIP_BUFFERS[key] = torch.empty_like(x)\n"
     "    out = _CLIP_BUFFERS[key]\n"
     "    torch.div(x, limit, out=out)\n"
     "    return out.tanh_().mul_(limit)\n"))}
