# Per channel, the scale and zero-point tensors are shaped for broadcasting with in-place unsqueeze_ calls:
# as_tensor hands back the caller's own float32 / int64 tensors, so the caller's scale and zero_point come
# back with extra trailing dimensions. Breaks "Both ... leave their inputs unchanged" (per channel).
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    shape = [1] * ndim\n    shape[axis] = -1\n    return t.reshape(shape)\n",
    "    for _ in range(ndim - 1 - axis % ndim):\n        t.unsqueeze_(-1)  # no copy: broadcast in place\n"
    "    return t\n"))}
