"""Wrong (held-out round 3): expand refuses a size of 0 ("sizes must be positive"), but PyTorch expands a
size-1 dimension (or a new leading one) to 0 elements: torch.ones(1).expand(0) has shape (0,)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '                if want < 0:\n',
    '                if want < 1:\n'), (
    '            elif have == 1:\n',
    '            elif have == 1 and want >= 1:\n'))}
