"""Held-out round 11: stale_nodes reads only the saved attributes of the element-wise operators
(_saved_self, _saved_other, _saved_result, _saved_tensor1, _saved_tensor2), not every attribute whose name
starts with _saved_; an mm whose second factor was written in place after the product (MmBackward0's
_saved_mat2) is missed, and so is a stale matrix of addmm (_saved_mat1, _saved_mat2). The text: "A node is
stale when reading one of its _saved_... attributes raises RuntimeError"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
                                    ('if attr.startswith("_saved_"):',
                                     'if attr in ("_saved_self", "_saved_other", "_saved_result", "_saved_tensor1",\n'
                                     '                        "_saved_tensor2"):'))}
