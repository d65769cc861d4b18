"""Round 18: capture_activations looks each name up while it registers the hooks, outside the try/finally, so
an unknown name that comes after a known one raises KeyError with the known module's hook still registered
("raise KeyError for a name the model does not have, before running anything"; "after the call, no hook you
added is left on any module")."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    """    modules = dict(model.named_modules())
    missing = [n for n in names if n not in modules]
    if missing:
        raise KeyError(f"no submodule named {missing}")
    captured, handles = {}, []""",
    """    modules = dict(model.named_modules())
    captured, handles = {}, []"""), (
    """    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(make_hook(n)))
        model(x)""",
    """    for n in names:
        handles.append(modules[n].register_forward_hook(make_hook(n)))  # KeyError for an unknown name
    try:
        model(x)"""))}
