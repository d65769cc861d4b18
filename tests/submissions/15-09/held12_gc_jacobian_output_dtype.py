"""Held-out round 12: numeric_jacobian builds each Jacobian in the dtype of fn's
output: for an fn that returns float32 from float64 inputs it is float32. The text says: "otherwise a float64 tensor"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ('        out_numel = fn(*base).numel()\n',
     '        out0 = fn(*base)\n        out_numel = out0.numel()\n'),
    ('        jac = torch.zeros(out_numel, t.numel(), dtype=torch.float64)\n',
     '        jac = torch.zeros(out_numel, t.numel(), dtype=out0.dtype)\n'),
    ('                diff = fn(*plus).reshape(-1).to(torch.float64) - fn(*minus).reshape(-1).to(torch.float64)\n',
     '                diff = fn(*plus).reshape(-1) - fn(*minus).reshape(-1)\n'))}
