# Correct, written differently: code that reads values, as it may on a GPU. quantize / dequantize check that
# every per-channel scale is positive (bool() of a tensor), fake_quantize's backward copies the gradient
# through a boolean index (grad[inside]), and quantized_linear checks w_scale the same way. None of this can
# run on the meta device; the device checks must still accept it (CPU inputs, meta as the default device).
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {
    "quant_impl": edited("16-05", "quant_impl", (
        "    if axis is not None:\n        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())\n"
        "    inv = 1.0 / scale\n",
        "    if bool((scale <= 0).any()):\n        raise ValueError('every scale must be positive')\n"
        "    if axis is not None:\n        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())\n"
        "    inv = 1.0 / scale\n"), (
        "    if axis is not None:\n        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n",
        "    if bool((scale <= 0).any()):\n        raise ValueError('every scale must be positive')\n"
        "    if axis is not None:\n        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n")),
    "fake_quant_impl": edited("16-05", "fake_quant_impl", (
        "        return grad * inside, None, None, None, None\n",
        "        out = torch.zeros_like(grad)\n        out[inside] = grad[inside]\n"
        "        return out, None, None, None, None\n")),
    "qlinear_impl": edited("16-05", "qlinear_impl", (
        "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
        "    if not bool((w_scale > 0).all()):\n        raise ValueError('w_scale must be positive')\n"
        "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n")),
}
