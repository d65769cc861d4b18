"""Round 16 held-out: stale_nodes switches grad mode off while it looks and switches it back only on
its last line, so the early `return []` for an out without grad_fn leaves grad mode off for the
caller (the text: "Only inspect")."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "fail", "op_logger": "pass"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl", (
    """    stale, seen = [], set()
    todo = [out.grad_fn] if out.grad_fn is not None else []
""", """    before = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    if out.grad_fn is None:
        return []
    stale, seen = [], set()
    todo = [out.grad_fn]
"""), ("    return sorted(stale)", "    torch.set_grad_enabled(before)\n    return sorted(stale)"))}
