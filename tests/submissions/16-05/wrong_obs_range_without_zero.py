"""Uses the observed range as it is, without widening it to contain 0: one-sided data gets a zero point off the
levels' end and 0 is not exactly representable."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    """        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)
        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)""",
    """        lo = self.min_val.reshape(-1)
        hi = self.max_val.reshape(-1)"""))}
