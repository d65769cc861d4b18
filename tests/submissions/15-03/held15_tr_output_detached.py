"""Held-out round 15: trace_activations returns output.detach() ("records must not hold the graph", applied to the
output as well): the values equal model(x), but a loss computed from the returned output can no longer be
backpropagated to the model's parameters. Exercise 5's text: "output is what model(x) returned"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited("15-03", "trace_impl", ("    return output, records", "    return output.detach(), records"))}
