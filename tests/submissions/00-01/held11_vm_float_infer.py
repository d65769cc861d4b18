"""Held-out round 11: view_meta infers a view's -1 with true division (numel / known), so a view with -1
returns float sizes and float strides (6, 4.0) where PyTorch gives ints; the values compare equal with ==,
but the text says view_meta returns a tuple (shape, stride, offset) "whose shape and stride are tuples of
ints"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
                                  ("new[new.index(-1)] = numel // known", "new[new.index(-1)] = numel / known"))}
