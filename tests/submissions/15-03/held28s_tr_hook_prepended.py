"""Held-out round 28, second pass (15-03 trace): correct (EXPECT pass), hooks registered with prepend=True.

Written as wrong (a hook put ahead of the module's own forward hooks records what forward computed, not what
the call returned after a user hook that replaces the output), then judged not wrong: the text asks for "a
forward hook on every leaf module" and does not say which side of the module's other hooks it sits, and the
suite already accepts a global forward hook (unusual_correct: register_module_forward_hook), which also runs
before the module's own hooks. Kept as a correct example so that no check comes to require "after the user's
hooks" without the text saying so.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}

CELLS = {
    "trace_impl": edited("15-03", "trace_impl",
                         ("handles.append(module.register_forward_hook(make_hook(name)))",
                          "handles.append(module.register_forward_hook(make_hook(name), prepend=True))")),
}
