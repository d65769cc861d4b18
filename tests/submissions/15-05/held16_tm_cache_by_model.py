"""Round 16: trace_mismatches reads "Trace model once" as once per model: the trace is cached by id(model) and
reused by the next call on the same model, even when that call passes another example (a bright one), so the
second call compares with the trace of the first call's example ("Trace model once, on example")."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail"}
CELLS = {"trace_mismatches_impl": edited("15-05", "trace_mismatches_impl", (
    "def trace_mismatches(model",
    "_TRACES = {}\n\n\ndef trace_mismatches(model"), (
    "            traced = torch.jit.trace(model, example)",
    """            if id(model) not in _TRACES:
                _TRACES[id(model)] = torch.jit.trace(model, example)
            traced = _TRACES[id(model)]"""))}
