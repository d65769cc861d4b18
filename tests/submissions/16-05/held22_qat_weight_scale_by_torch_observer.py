"""Round 22: QATLinear takes the weight scale from PyTorch's MinMaxObserver (per_tensor_symmetric, qint8) instead of
a RangeObserver. The scale is the same number (max|w| / 127.5, eps floor), so every value and gradient agrees;
the text: "Build it on your RangeObserver and fake_quantize", "s_w the scale from a fresh
RangeObserver(torch.int8, symmetric=True) that has watched the current weight once"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        w_obs = RangeObserver(torch.int8, symmetric=True)\n",
    "        from torch.ao.quantization.observer import MinMaxObserver\n"
    "        w_obs = MinMaxObserver(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)\n"))}
