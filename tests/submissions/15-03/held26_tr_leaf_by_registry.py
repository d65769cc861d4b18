"""Held-out round 26 (issue 39): trace_activations decides "leaf" by reading the registry directly:
`not module._modules`. A module whose `_modules` holds only None slots (e.g. `register_module("act", None)`,
an optional sub-layer switched off) has no children, so it is a leaf, but it is not hooked and its call is
missing from the records. Contradicts: "with a forward hook on every **leaf** module (a module without
children, found through `model.named_modules()`)" and "one dict per leaf-module *call*"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "trace_impl": edited(
        "15-03", "trace_impl",
        ("if next(module.children(), None) is None:", "if not module._modules:"),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
