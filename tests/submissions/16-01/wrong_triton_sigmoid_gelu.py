"""Uses the sigmoid approximation x * sigmoid(1.702 x) of GELU instead of the tanh one."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl",
                               ("    y = 0.5 * x * (1.0 + t)\n", "    y = x * tl.sigmoid(1.702 * x)\n"))}
