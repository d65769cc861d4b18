"""Known-wrong OpLogger (gap round): runs each operator as func(*args), dropping its keyword arguments
(a dtype, a device, add's alpha), so some results change ("Run every call unchanged")."""
from course.grading.class_run.submissions import edited

CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("        out = func(*args, **(kwargs or {}))", "        out = func(*args)"))}
EXPECT = {"op_logger": "fail"}
