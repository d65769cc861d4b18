"""Round 16 held-out: view_meta's view refuses to infer -1 whenever the tensor has no elements, even
where the other sizes pin it to 0 (PyTorch: zeros(0, 3).view(-1, 3) has shape (0, 3); it raises only
when the other sizes multiply to 0). reshape_is_view uses it, so a zero-size reshape with -1 is
called a copy."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "fail", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    "if known == 0 or numel % known:", "if known == 0 or numel == 0 or numel % known:"))}
