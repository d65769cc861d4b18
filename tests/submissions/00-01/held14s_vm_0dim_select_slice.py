"""Round 14s: select and slice on a 0-dim header accept dimension 0 or -1, as transpose does, and return the
header unchanged. PyTorch raises IndexError (a 0-dim tensor has no dimension to select from or slice). The text:
"a dimension out of range raises IndexError" (the old checks drew select and slice only on headers with a
dimension)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '    if op == "transpose" and n == 0:',
    '    if op in ("select", "slice") and n == 0 and args[0] in (-1, 0):\n'
    '        pass  # as transpose: a 0-dim tensor names dimension 0 or -1\n'
    '    elif op == "transpose" and n == 0:'))}
