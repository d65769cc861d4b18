"""Held-out round 9: the hooked pass only collects the records; after removing the hooks the model runs a
second time to return a "clean" output. Dropout then draws a second mask (records and output disagree)
and BatchNorm in training mode updates its statistics twice. The text: trace_activations runs model(x)
once, and output is what that call returned."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited(
    "15-03", "trace_impl",
    ("        output = model(x)\n    finally:\n        for h in handles:\n            h.remove()\n    return output, records",
     "        model(x)\n    finally:\n        for h in handles:\n            h.remove()\n    return model(x), records"))}
