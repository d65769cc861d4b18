"""Min-max without memory: the range is that of the last tensor only."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "self.min_val, self.max_val = torch.minimum(self.min_val, lo), torch.maximum(self.max_val, hi)",
    "self.min_val, self.max_val = lo, hi"))}
