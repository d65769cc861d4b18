"""Known-wrong view_meta (gap round): returns shape and stride as the lists it worked on, not tuples
("return a tuple (shape, stride, offset) whose shape and stride are tuples of ints")."""
from course.grading.class_run.submissions import edited

CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ("    return tuple(shape), tuple(stride), offset\n", "    return shape, stride, offset\n"),
    ("            return tuple(new), tuple(out), offset", "            return new, out, offset"))}
EXPECT = {"view_meta": "fail"}
