"""Round 18, second pass (not counted): capture_activations removes its hooks after a successful run and in an
`except RuntimeError` block, the error a shape mismatch gives. A model that raises anything else (a ValueError
of its own checks, a TypeError) leaves every hook registered ("after the call, no hook you added is left on any
module, even if model(x) raised")."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    """    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(make_hook(n)))
        model(x)
    finally:
        for h in handles:
            h.remove()""",
    """    for n in names:
        handles.append(modules[n].register_forward_hook(make_hook(n)))
    try:
        model(x)
    except RuntimeError:
        for h in handles:
            h.remove()
        raise
    for h in handles:
        h.remove()"""))}
