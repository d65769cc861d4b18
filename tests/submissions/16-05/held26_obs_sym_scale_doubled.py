"""Round 26: the symmetric scale is written `2 * max(-lo, hi) / (qmax - qmin)` instead of
`max(-lo, hi) / ((qmax - qmin) / 2)`. The two are the same float32 number (doubling is exact) except near the top
of float32: for data reaching 2e38 or more the doubled value overflows to inf, so x = [-2e38, 3e38]
(symmetric int8) gives scale inf where PyTorch's MinMaxObserver gives 3e38 / 127.5 = 2.35e36. Breaks
"scale = max(-lo, hi) / ((qmax - qmin) / 2)" computed in float32 and "the result equals that of PyTorch's
observer" for a float32 tensor x (any values)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)\n",
    "            scale = torch.clamp(2 * torch.maximum(-lo, hi) / float(self.qmax - self.qmin), min=eps)\n"))}
