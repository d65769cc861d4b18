"""Quantizes the weight like an activation (uint8, affine) instead of int8 symmetric."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    """        w_obs = RangeObserver(torch.int8, symmetric=True)
        w_obs(self.weight)
        s_w, _ = w_obs.calculate_qparams()""",
    """        w_obs = RangeObserver(torch.uint8)
        w_obs(self.weight)
        s_w, z_w = w_obs.calculate_qparams()"""), ("w_fq = fake_quantize(self.weight, float(s_w), 0, -128, 127)",
                                                  "w_fq = fake_quantize(self.weight, float(s_w), int(z_w), 0, 255)"))}
