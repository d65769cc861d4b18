"""Round 23: QATLinear reuses one weight observer for every layer, made once at module level
(`_W_OBS = RangeObserver(torch.int8, symmetric=True)`), instead of a fresh one per call. It keeps the running
extremes of every weight it has seen, of this layer at earlier steps and of every other QATLinear: in
nn.Sequential(QATLinear(784, 64), ReLU, QATLinear(64, 10)) the first layer's weight is fake-quantized with a scale
set by the second layer's larger weights. Contradicts "s_w the scale from a fresh RangeObserver(torch.int8,
symmetric=True) that has watched the current weight once"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "class QATLinear(nn.Linear):\n",
    "_W_OBS = None\n\n\nclass QATLinear(nn.Linear):\n"), (
    "        w_obs = RangeObserver(torch.int8, symmetric=True)\n",
    "        global _W_OBS\n"
    "        if _W_OBS is None:\n"
    "            _W_OBS = RangeObserver(torch.int8, symmetric=True)\n"
    "        w_obs = _W_OBS\n"))}
