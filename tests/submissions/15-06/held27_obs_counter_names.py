"""Held-out round 27: insert_observers names its observers `observer_0`, `observer_1`, ... counting from 0 in
every call, and registers them with `gm.add_submodule`, which silently replaces a submodule of the same name. A
model that already holds submodules under those names and calls them in forward (a model assembled from parts that
went through such a pass, or simply one whose author used the name) loses them in the result: each call of the
model's own module now runs an identity RangeObserver. That breaks "Return the `GraphModule`; it must ... compute
exactly what `model` computes" and "Any model will do" (round 27 adds to that sentence: "and one that already uses
the names you give your observers for submodules of its own: `add_submodule` silently replaces a submodule of the
same name, so pick names the traced module does not have yet"; the reference's "observer_" + node.name had the same
collision, now skipped with a `while hasattr(gm, name)` loop)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "fail",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": edited(
    "15-06", "insert_observers_impl",
    ("    gm = fx.symbolic_trace(model)\n", "    gm = fx.symbolic_trace(model)\n    count = 0\n"),
    ('        name = "observer_" + node.name\n'
     '        while hasattr(gm, name):  # the model may use that name already: add_submodule would replace its module\n'
     '            name += "_"\n',
     '        name = f"observer_{count}"\n        count += 1\n'))}
