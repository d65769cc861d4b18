"""Round 22: Clamp turns the bounds into tensors with torch.tensor(lo) / torch.tensor(hi), built in the default
float32, and clamps with torch.maximum / torch.minimum: for float64 x and bounds such as lo = -0.65, hi = 0.8 the
clamped entries hold float32(lo) / float32(hi) (off by ~1e-8), not lo / hi ("matching torch.clamp(x, lo, hi) in
value"). The gradient mask still uses the exact floats."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    "return x.clamp(lo, hi)",
    "return torch.maximum(torch.minimum(x, torch.tensor(hi)), torch.tensor(lo))"))}
