"""No eps floor: a tensor of zeros gives a scale of 0 (and a zero point from 0 / 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "scale = torch.clamp((hi - lo) / float(self.qmax - self.qmin), min=eps)",
    "scale = (hi - lo) / float(self.qmax - self.qmin)"))}
