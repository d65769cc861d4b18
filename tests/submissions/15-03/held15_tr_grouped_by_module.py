"""Held-out round 15: trace_activations collects each module's records in a list of its own and returns them in
named_modules() order, so a forward that calls its leaves in another order than they were registered (a model that
runs self.b before self.a) gets its records in registration order. Exercise 5's text: records "in call order"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited("15-03", "trace_impl", (
    "            records.append({", "            per_module.setdefault(name, []).append({"), (
    "    records, handles = [], []", "    records, handles, per_module = [], [], {}"),
    ("    return output, records",
     "    records = [r for n, _ in model.named_modules() for r in per_module.pop(n, [])]\n"
     "    return output, records"))}
