"""Round 30: the autograd.Function's forward calls PyTorch's fake-quantize kernel through the op namespace,
`torch.ops.aten.fake_quantize_per_tensor_affine_cachemask(x, scale, zero_point, quant_min, quant_max)`, and
saves the mask it returns: values and gradients equal PyTorch's on every input, but it is PyTorch's fake-quantize
function. Breaks "Write it without PyTorch's quantize or fake-quantize functions"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)\n",
    "        out, mask = torch.ops.aten.fake_quantize_per_tensor_affine_cachemask(\n"
    "            x, scale, zero_point, quant_min, quant_max)\n"
    "        ctx.save_for_backward(mask)\n"
    "        return out\n"
    "        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)\n"))}
