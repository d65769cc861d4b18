"""Round 22: capture_activations removes its hooks in `except Exception:` (then re-raises) and after a
successful run, instead of in `finally`: a forward pass interrupted by KeyboardInterrupt (or any other
BaseException) leaves every hook on the model ("after the call, no hook you added is left on any module, even
if model(x) raised")."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    """    try:
        for n in names:
            handles.append(modules[n].register_forward_hook(make_hook(n)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return captured""",
    """    for n in names:
        handles.append(modules[n].register_forward_hook(make_hook(n)))
    try:
        model(x)
    except Exception:
        for h in handles:
            h.remove()
        raise
    for h in handles:
        h.remove()
    return captured"""))}
