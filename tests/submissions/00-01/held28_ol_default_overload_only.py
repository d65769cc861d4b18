"""Round 28: OpLogger counts FLOPs only for the `.default` overloads (it keys its formulas on `str(func)`),
so `torch.mm(a, b, out=c)` (aten.mm.out) and the other `.out` overloads of the six packets get no count.
Breaks "`log.flops` is a dict from the packet name ... to the total FLOPs of all its calls" and "must equal
what `FlopCounterMode` reports": wrong for torch.mm(a, b, out=c) with a (3, 4), b (4, 5) (gives {},
FlopCounterMode gives {"aten.mm": 120})."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        name = str(func.overloadpacket)
        count = None''',
    '''        name = str(func.overloadpacket) if str(func).endswith(".default") else str(func)
        count = None'''))}
