"""Held-out round 12: fixed_add_positions computes k / seq in the default dtype
(float32) on the CPU and then moves it to x's device and dtype: for a float64 x the offsets carry float32 rounding
(about 1e-8). The text says: x + k / seq, of x's dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited(
    "15-09", "zoo_impl",
    ('    pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]\n',
     '    pos = (torch.arange(x.shape[1]).unsqueeze(1) / x.shape[1]).to(device=x.device, dtype=x.dtype)\n'))}
