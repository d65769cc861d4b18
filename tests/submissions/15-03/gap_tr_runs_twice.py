"""Known-wrong trace_activations (gap round): records with the hooks, removes them, then runs model(x) a
second time for the output it returns, so a BatchNorm in training mode updates its statistics twice and
a Dropout draws twice ("runs model(x) once"; "output is what model(x) returned")."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
    ("    return output, records", "    return model(x), records"))}
EXPECT = {"trace": "fail"}
