"""Held-out round 11: OpLogger keeps its list and dict in one module-level store that each new OpLogger()
empties and shares: a new logger starts empty, but creating it wipes the log of every earlier logger, and
two loggers alive at once (nested) write into the same list. The text: "log.ops is a list of str(func) for
every call that reaches __torch_dispatch__" (the calls of that log's block) and "A new OpLogger() starts with
an empty list and an empty dict" (its own, not one taken from the others)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl",
                                  ("class OpLogger(TorchDispatchMode):",
                                   "_STORE = ([], {})\n\n\nclass OpLogger(TorchDispatchMode):"),
                                  ("        self.ops = []\n        self.flops = {}\n",
                                   "        _STORE[0].clear()\n        _STORE[1].clear()\n"
                                   "        self.ops, self.flops = _STORE\n"))}
