"""ZeRO-2 that steps on the reduce-scattered sum, without dividing by W."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edited("16-04", "zero2_impl", ("    dist.reduce_scatter_single(g, flat_grad)\n    g /= world\n",
                                                      "    dist.reduce_scatter_single(g, flat_grad)\n"))}
