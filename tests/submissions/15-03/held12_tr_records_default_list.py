"""Held-out round 12 (issue 39): trace_activations keeps its records in a mutable default argument
(records=[]), so every call appends to the same list: the second trace of a session returns the first
trace's records followed by its own. Breaks: "runs model(x) once ... returns (output, records): ...
records a list with one dict per leaf-module call" (of this call)."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
                              ("def trace_activations(model, x):\n", "def trace_activations(model, x, records=[]):\n"),
                              ("    records, handles = [], []\n", "    handles = []\n"))}
EXPECT = {"trace": "fail"}
