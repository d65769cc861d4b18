"""Round 27: OpLogger logs a call only when one of its positional arguments is a tensor ("tensor ops"), so
factory calls such as aten.ones.default or aten.arange.start (torch.ones(3), torch.arange(4) inside the block)
are run but not logged. Breaks "`log.ops` is a list of `str(func)` ... for every call that reaches
`__torch_dispatch__`, in call order": wrong for `with OpLogger() as log: torch.ones(3) @ torch.ones(3, 2)`."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        self.ops.append(str(func))  # before the call: an op that raises was still dispatched''',
    '''        if any(isinstance(a, torch.Tensor) for a in args):
            self.ops.append(str(func))'''))}
