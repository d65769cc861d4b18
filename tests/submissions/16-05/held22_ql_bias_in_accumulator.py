"""Round 22: quantized_linear folds the bias into the int32 accumulator, as fbgemm does:
acc + round(bias / (x_scale * w_scale)), then one multiply. The result is within one level of the float
computation, but y differs from the text's by up to half of x_scale * w_scale, which moves outputs next to a half
level to the other level. The text: "Then y = acc * (x_scale * w_scale) + bias in float32, requantized like your
quantize"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qat": "pass"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "    y = acc.to(torch.float32) * (x_scale * w_scale.to(torch.float32))\n"
    "    if bias is not None:\n"
    "        y = y + bias\n",
    "    step = x_scale * w_scale.to(torch.float32)\n"
    "    if bias is not None:  # the bias as int32 levels of the accumulator, as int8 kernels keep it\n"
    "        acc = acc + torch.round(bias / step).to(torch.int32)\n"
    "    y = acc.to(torch.float32) * step\n"))}
