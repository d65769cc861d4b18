"""Round 23: QATLinear takes the weight scale straight from the visible check's formula, `s_w = weight.abs().max()
/ 127.5`, instead of from a fresh symmetric RangeObserver. For every non-zero weight the two agree; for an
all-zero weight (a zero-initialised layer) s_w is 0, fake_quantize inverts it to inf, 0 * inf is nan, and the
output and gradients are nan where the observer's eps floor gives s_w = eps and the plain bias. Contradicts
"s_w the scale from a fresh RangeObserver(torch.int8, symmetric=True) that has watched the current weight once"
(with "PyTorch never lets the scale fall below torch.finfo(torch.float32).eps")."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        w_obs = RangeObserver(torch.int8, symmetric=True)\n"
    "        w_obs(self.weight)\n"
    "        s_w, _ = w_obs.calculate_qparams()\n",
    "        s_w = self.weight.detach().abs().max() / 127.5\n"))}
