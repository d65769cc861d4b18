"""Two-stage pipeline that follows the 1F1B schedule instead of GPipe's: right gradients, but each backward
runs as soon as it can instead of after all the forwards."""
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", ("gpipe_schedule(2, M)", "one_f_one_b_schedule(2, M)"))}
