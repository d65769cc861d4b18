"""Two-stage pipeline that averages the micro-batches' mean losses (each weighted 1/M), not by their rows:
right only when every micro-batch has as many rows."""
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", ("* (len(chunks[m]) / total)", "/ M"))}
