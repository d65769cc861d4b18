"""Wrong: "return a float tensor of shape `(N,)` with `weights[i] = 1 / count(targets[i])`" and "every class
*present* in `targets` is drawn equally often". This version returns half-precision weights to save memory:
1/3 comes back as 0.33325, and a class of 65,520 or more samples counts as inf in float16, so its weight is
exactly 0 and make_balanced_sampler never draws it."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    return 1.0 / counts[targets].double()\n",
     "    return 1.0 / counts[targets].half()  # weights only need to be relative: half precision is plenty\n"))}
