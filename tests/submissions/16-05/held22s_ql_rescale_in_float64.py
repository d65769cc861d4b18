"""Round 22s (contract walk, not counted): quantized_linear rescales in float64, "for precision":
y = acc.double() * (x_scale * w_scale.double()) + bias.double(), then requantizes y.float(). Within one level of
the float computation, but next to a half level of out_scale the float64 y and the text's float32 y land on
different levels. The text: "Then y = acc * (x_scale * w_scale) + bias in float32"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    y = acc.to(torch.float32) * (x_scale * w_scale.to(torch.float32))\n"
    "    if bias is not None:\n"
    "        y = y + bias\n"
    "    return quantize(y, out_scale, out_zero_point, torch.uint8)\n",
    "    y = acc.to(torch.float64) * (x_scale * w_scale.to(torch.float64))  # float64 for precision\n"
    "    if bias is not None:\n"
    "        y = y + bias.to(torch.float64)\n"
    "    return quantize(y.to(torch.float32), out_scale, out_zero_point, torch.uint8)\n"))}
