"""Round 19s: an operator that raises inside the block is logged and its error swallowed: __torch_dispatch__
returns None instead of letting the RuntimeError through, so the caller never sees the failure (the text: an
exception raised inside the block goes through to the caller; run every call unchanged)."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket)''',
    '''        try:
            out = func(*args, **(kwargs or {}))
        except RuntimeError:  # a failing op is in the log; the logger keeps the block running
            return None
        name = str(func.overloadpacket)'''))}
