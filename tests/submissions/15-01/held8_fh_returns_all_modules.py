"""Wrong (held-out round 8): hooks every submodule and returns all their outputs, so the dict also holds names
nobody asked for ("returns a dict mapping each requested submodule name ... to that submodule's output")."""
from course.grading.class_run.submissions import edited

EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": edited(
    "15-01", "capture_impl",
    ('        for n in names:\n            handles.append(modules[n].register_forward_hook(make_hook(n)))',
     '        for n, m in modules.items():\n            handles.append(m.register_forward_hook(make_hook(n)))'))}
