"""ZeRO-3 that steps on the reduce-scattered sum of the ranks' gradients, not their mean."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl", ("        g /= world\n", ""))}
