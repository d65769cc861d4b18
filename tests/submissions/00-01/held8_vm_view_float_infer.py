"""Wrong (held-out round 8): view_meta infers a view's -1 with true division (numel / known), so the
inferred size and every stride built from it are floats such as 4.0. The text says the returned shape and
stride are "tuples of ints"; 4.0 == 4 in Python, so only a type check sees it."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    "            new[new.index(-1)] = numel // known\n", "            new[new.index(-1)] = numel / known\n"))}
