"""ZeRO-3 whose backward keeps the previous layer's output (and with its graph that layer's gathered
parameters) alive while the next layer runs: the `del` forgotten."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl", ("        del params, out\n", ""))}
