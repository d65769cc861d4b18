"""Round 30: the observer records in float64 (`y = x.detach().to(torch.float64)`) "for precision" and casts
back to float32 only inside calculate_qparams: the min-max qparams are unchanged, but `min_val` and `max_val` are
float64 tensors (e.g. RangeObserver()(randn(3, 5)).min_val.dtype is torch.float64), and the moving average runs
in float64. Breaks "records the smallest and largest value ... in the attributes `min_val` and `max_val`,
float32 tensors"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        y = x.detach().to(torch.float32)\n",
    "        y = x.detach().to(torch.float64)\n"), (
    "        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n"
    "        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)\n",
    "        lo = torch.clamp(self.min_val.to(torch.float32), max=0.0).reshape(-1)\n"
    "        hi = torch.clamp(self.max_val.to(torch.float32), min=0.0).reshape(-1)\n"))}
