"""Round 16 held-out: OpLogger counts a matrix product's FLOPs from its input shapes before running it,
so a product that raises (mismatched shapes) still gets an entry that FlopCounterMode never reports
(the text: "The dict must equal what FlopCounterMode reports for the same code")."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    """        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket)
        count = None
        if name in""", """        name = str(func.overloadpacket)
        if name in ("aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm"):
            a, b = (args[-2], args[-1]) if name in ("aten.mm", "aten.addmm", "aten.bmm") else (args[1], args[2])
            count = 2 * math.prod(a.shape) * b.shape[-1]
            self.flops[name] = self.flops.get(name, 0) + count
            return func(*args, **(kwargs or {}))
        out = func(*args, **(kwargs or {}))
        count = None
        if name in"""))}
