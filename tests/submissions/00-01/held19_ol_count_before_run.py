"""Round 19: mm and addmm FLOPs are added from the argument shapes before the operator runs, so a product whose
shapes do not match (and raises) is still counted, where FlopCounterMode counts only the calls that ran (the text:
the dict must equal what FlopCounterMode reports for the same code)."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        self.ops.append(str(func))  # before the call: an op that raises was still dispatched
        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket)
        count = None
        if name in ("aten.mm", "aten.addmm"):
            a, b = args[-2], args[-1]
            count = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif name''',
    '''        self.ops.append(str(func))  # before the call: an op that raises was still dispatched
        name = str(func.overloadpacket)
        if name in ("aten.mm", "aten.addmm"):
            a, b = args[-2], args[-1]
            self.flops[name] = self.flops.get(name, 0) + 2 * a.shape[0] * a.shape[1] * b.shape[1]
        out = func(*args, **(kwargs or {}))
        count = None
        if name'''))}
