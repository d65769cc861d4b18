"""Held-out round 11: view_meta counts a slice's elements as math.ceil((stop - start) / step), a float
division: right for every small layout, wrong once the sizes pass 2**53 (shape (2**62,), slice 0::3 gives
1537228672809129216 elements instead of 1537228672809129302). The text says "using integer arithmetic
only" and that the result must equal PyTorch's own operation on that shape, stride and offset."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
                                  ("shape[d] = (stop - start + step - 1) // step",
                                   "shape[d] = math.ceil((stop - start) / step)"))}
