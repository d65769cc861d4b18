"""Held-out round 12 (issue 39): insert_observers walks the live gm.graph.nodes while inserting, so the
observer node just inserted is visited next. With op_types=(nn.Module,) ("every call_module node whose
module is an instance of one of op_types") each new RangeObserver is itself an instance and gets another
observer, without end. Breaks: "right after every call_module node whose module is an instance of one of
op_types ... insert a call to a fresh RangeObserver" (the model's module calls, once each)."""
from course.grading.class_run.submissions import edited

CELLS = {"insert_observers_impl": edited("15-06", "insert_observers_impl",
                                         ("    for node in list(gm.graph.nodes):\n", "    for node in gm.graph.nodes:\n"))}
EXPECT = {"insert_observers": "fail"}
