"""Two-stage pipeline that accumulates the micro-batches' mean losses without any weight: the gradient of a
sum of M means."""
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (" * (len(chunks[m]) / total)", ""))}
