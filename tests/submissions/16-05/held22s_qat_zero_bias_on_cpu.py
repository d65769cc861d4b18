"""Round 22s (contract walk, not counted): with bias=False QATLinear passes F.linear a zero bias built as
torch.zeros(out_features), "so the layer always adds a bias". On the CPU nothing changes; on a GPU the zero bias is
on the CPU next to a GPU input and F.linear raises. The text: "Every tensor it creates is on x's device (the
weight's), so it runs on a GPU as on the CPU" (exercise 5 had no device sentence and no device check before round
22)."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        return F.linear(x_fq, w_fq, self.bias)",
    "        bias = self.bias if self.bias is not None else torch.zeros(self.out_features)\n"
    "        return F.linear(x_fq, w_fq, bias)"))}
