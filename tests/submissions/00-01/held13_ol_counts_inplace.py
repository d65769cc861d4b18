"""Held-out round 13: the packet name is stripped of a trailing underscore ("addmm_ is the same product"), so
c.addmm_(a, b) and c.baddbmm_(a, b) are counted under "aten.addmm" / "aten.baddbmm". FlopCounterMode does not
count in-place products. The text: flops only for the six packets, "other operators ... have no entry",
"The dict must equal what FlopCounterMode reports"."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited(
    "00-01", "op_logger_impl",
    ("name = str(func.overloadpacket)", "name = str(func.overloadpacket).rstrip(\"_\")"))}
