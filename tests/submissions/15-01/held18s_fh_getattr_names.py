"""Round 18, second pass (not counted): capture_activations resolves each name with getattr along its dotted
path ('' is the model itself) and turns an AttributeError into KeyError. A name that is an attribute of the
model but not a submodule ('0.weight', a parameter; 'training', a flag) resolves to that attribute, and
registering a hook on it raises AttributeError, not KeyError ("raise KeyError for a name the model does not
have", names "as in model.named_modules()")."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    """    modules = dict(model.named_modules())
    missing = [n for n in names if n not in modules]
    if missing:
        raise KeyError(f"no submodule named {missing}")""",
    """    def resolve(name):
        obj = model
        for part in name.split(".") if name else []:
            try:
                obj = getattr(obj, part)
            except AttributeError:
                raise KeyError(name) from None
        return obj

    modules = {n: resolve(n) for n in names}"""))}
