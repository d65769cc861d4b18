"""Known-wrong OpLogger (gap round): appends str(func) after the call returns, so an operator that
raises is missing from log.ops ("for every call that reaches __torch_dispatch__")."""
from course.grading.class_run.submissions import edited

CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
    ("        self.ops.append(str(func))  # before the call: an op that raises was still dispatched\n"
     "        out = func(*args, **(kwargs or {}))\n",
     "        out = func(*args, **(kwargs or {}))\n        self.ops.append(str(func))\n"))}
EXPECT = {"op_logger": "fail"}
