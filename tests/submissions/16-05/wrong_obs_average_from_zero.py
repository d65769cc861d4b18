"""The moving average starts from a range of zeros instead of letting the first tensor set it."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    """        if self.min_val is None:
            self.min_val, self.max_val = lo, hi""",
    """        if self.min_val is None and self.c is None:
            self.min_val, self.max_val = lo, hi
        elif self.min_val is None:
            self.min_val, self.max_val = self.c * lo, self.c * hi"""))}
