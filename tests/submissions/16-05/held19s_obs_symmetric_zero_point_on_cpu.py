"""Round 19s (contract walk, not counted): RangeObserver builds the symmetric zero point with torch.full(shape, 128
or 0, dtype=torch.int64) and no device=, so on a GPU its calculate_qparams() returns a CUDA scale and a CPU zero
point (nothing raises: QATLinear's int(z) still works). The text: "Every tensor it creates is on x's device, so it
runs on a GPU as on the CPU" (a row the observer's checks never read before round 19: the rest of the topic ran
on the meta stand-in, the observer only on the CPU)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            zero_point = torch.full_like(scale, 128 if self.dtype == torch.uint8 else 0, dtype=torch.int64)",
    "            zero_point = torch.full(scale.shape, 128 if self.dtype == torch.uint8 else 0, dtype=torch.int64)"))}
