"""Known-wrong OpLogger (gap round): adds an entry only when the count is not zero, so a
convolution_backward that computes only the bias gradient (input and weight need none) has no entry,
where FlopCounterMode reports it with 0 ("The dict must equal what FlopCounterMode reports")."""
from course.grading.class_run.submissions import edited

CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("        if count is not None:", "        if count:"))}
EXPECT = {"op_logger": "fail"}
