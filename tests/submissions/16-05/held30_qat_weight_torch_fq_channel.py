"""Round 30: QATLinear fake-quantizes the activations with the student's fake_quantize but the weight with
PyTorch's per-channel twin, `torch.fake_quantize_per_channel_affine(weight, s_w.expand(out_features), zeros, 0,
-128, 127)` (one scale repeated per row): values and gradients equal the reference, but the weight does not go
through the student's fake_quantize. Breaks "Build it on your RangeObserver and fake_quantize (not on
torch.ao.nn.qat, PyTorch's observers or its fake-quantize functions)" and "returns F.linear(fake_quantize(x, ...),
fake_quantize(weight, s_w, 0, -128, 127), bias)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        w_fq = fake_quantize(self.weight, float(s_w), 0, -128, 127)\n",
    "        m = self.weight.shape[0]\n"
    "        w_fq = torch.fake_quantize_per_channel_affine(\n"
    "            self.weight, s_w.to(torch.float32).expand(m).contiguous(),\n"
    "            torch.zeros(m, dtype=torch.int32, device=self.weight.device), 0, -128, 127)\n"))}
