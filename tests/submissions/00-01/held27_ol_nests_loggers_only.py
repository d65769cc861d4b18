"""Round 27: OpLogger keeps a class-level stack of active loggers, records each call in every logger on it
and runs the call with all modes switched off (so the outer logger does not see it twice). Outer OpLoggers
get every call, but any other mode active around the block (FlopCounterMode, a user's TorchDispatchMode)
sees nothing of it. Breaks "a mode active around the block (such as an outer `OpLogger`: loggers nest)
still sees every call": wrong for `with FlopCounterMode() as fc: with OpLogger(): a @ b` (fc counts 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        ### BEGIN SOLUTION
        self.ops.append(str(func))  # before the call: an op that raises was still dispatched
        out = func(*args, **(kwargs or {}))''',
    '''    _active = []

    def __enter__(self):
        OpLogger._active.append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        OpLogger._active.remove(self)
        return super().__exit__(*exc)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        ### BEGIN SOLUTION
        from torch.utils._python_dispatch import _disable_current_modes
        loggers = [lg for lg in OpLogger._active if lg is not self] + [self]
        for lg in loggers:
            lg.ops.append(str(func))
        with _disable_current_modes():
            out = func(*args, **(kwargs or {}))'''), (
    '''        if count is not None:
            self.flops[name] = self.flops.get(name, 0) + count''',
    '''        if count is not None:
            for lg in loggers:
                lg.flops[name] = lg.flops.get(name, 0) + count'''))}
