"""Held-out round 26 (issue 39): trace_activations keeps the records of "the current trace" in a
module-level variable, rebound to a fresh list at every call (so each call still returns its own list).
Two traces that overlap break: when the model's forward itself calls trace_activations on a sub-model (or
another trace runs in between), the inner call rebinds the global; the outer hooks then append to the inner
list, and the outer call returns the inner list. E.g. a model whose forward is
`h, _ = trace_activations(self.inner, x); return self.out(h)`: the outer records lack the leaf calls before
the inner trace, and the inner call's list gets the outer records too. Contradicts: "`records` a new list
(each call returns its own) with one dict per leaf-module *call*, in call order"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "trace_impl": "_TRACE_RECORDS = []\n\n\n" + edited(
        "15-03", "trace_impl",
        ("    records, handles = [], []\n",
         "    global _TRACE_RECORDS\n    _TRACE_RECORDS = []\n    handles = []\n"),
        ("            records.append(", "            _TRACE_RECORDS.append("),
        ("    return output, records", "    return output, _TRACE_RECORDS"),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
