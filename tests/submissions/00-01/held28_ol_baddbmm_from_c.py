"""Round 28: OpLogger takes the batch size and the output's sizes of `baddbmm(c, a, b)` from the added `c`
(thinking c has the output's shape) and the inner size from `a`. When c is broadcast (shape (1, n, p) or
(n, p) or (p,)) the count is wrong or it raises. Breaks "`baddbmm(c, a, b)` counts as the `bmm` of `a` and
`b`": wrong for baddbmm(c, a, b) with c (1, 3, 5), a (4, 3, 2), b (4, 2, 5) (gives 2*1*3*5*2 = 60,
FlopCounterMode gives 240)."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''            a, b = (args[0], args[1]) if name == "aten.bmm" else (args[1], args[2])
            count = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]''',
    '''            if name == "aten.bmm":
                a, b = args[0], args[1]
                count = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
            else:
                c, a = args[0], args[1]
                count = 2 * c.shape[-3] * c.shape[-2] * c.shape[-1] * a.shape[2]'''))}
