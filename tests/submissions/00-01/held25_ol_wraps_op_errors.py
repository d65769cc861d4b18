"""Round 25: OpLogger re-raises an operator's error as a RuntimeError naming the operator (to make logs
readable). RuntimeErrors still look the same, but an IndexError from aten.select (torch.ones(3)[5] inside the
block) or any other error type reaches the caller as a RuntimeError. Breaks "An exception raised inside the
block goes through to the caller" and "Run every call unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        out = func(*args, **(kwargs or {}))''',
    '''        try:
            out = func(*args, **(kwargs or {}))
        except Exception as err:
            raise RuntimeError(f"{func} failed: {err}") from err'''))}
