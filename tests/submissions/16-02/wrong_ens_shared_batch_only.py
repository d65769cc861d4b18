"""Ignores per_model: every model gets the whole x, also when it holds one batch per model."""
from course.grading.class_run.submissions import edited

EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", ("in_dims=(0, 0, 0 if per_model else None)",
                                                            "in_dims=(0, 0, None)"))}
