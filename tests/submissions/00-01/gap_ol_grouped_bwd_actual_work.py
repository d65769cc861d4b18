"""Known-wrong OpLogger (gap round): the weight gradient of a grouped convolution counted as the work
actually done (C_in/groups), not FlopCounterMode's full C_in ("with the input's full C_in = x.shape[1]
... we follow its convention")."""
from course.grading.class_run.submissions import edited

CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("count += 2 * x.shape[0] * x.shape[1] * w.shape[0]", "count += 2 * x.shape[0] * w.shape[1] * w.shape[0]"))}
EXPECT = {"op_logger": "fail"}
