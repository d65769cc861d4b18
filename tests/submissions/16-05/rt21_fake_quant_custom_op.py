"""Known-wrong fake_quantize (red team 21's custom-op box, closed after the pass): the forward hides PyTorch's
torch.fake_quantize_per_tensor_affine inside an operator of the submission's own registry
(torch.library.custom_op), so a probe's op log is shown "mine::fq" and never PyTorch's fake-quantize op; the
straight-through backward stays its own. The text asks for it written without PyTorch's quantize or
fake-quantize functions and without an operator of one's own registry."""
from course.grading.class_run.submissions import edited


CELLS = {"fake_quant_impl": edited(
    "16-05", "fake_quant_impl",
    ("class _FakeQuantize(torch.autograd.Function):\n",
     "@torch.library.custom_op(\"mine::fq\", mutates_args=())\n"
     "def _fq(x: torch.Tensor, scale: float, zero_point: int, quant_min: int, quant_max: int) -> torch.Tensor:\n"
     "    return torch.fake_quantize_per_tensor_affine(x, scale, zero_point, quant_min, quant_max)\n\n\n"
     "@_fq.register_fake\n"
     "def _(x, scale, zero_point, quant_min, quant_max):\n"
     "    return torch.empty_like(x)\n\n\n"
     "class _FakeQuantize(torch.autograd.Function):\n"),
    ("        return (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(\n"
     "            scale, dtype=torch.float32, device=x.device)\n",
     "        return _fq(x, float(scale), int(zero_point), int(quant_min), int(quant_max))\n"))}
EXPECT = {"fake_quant": "fail"}
