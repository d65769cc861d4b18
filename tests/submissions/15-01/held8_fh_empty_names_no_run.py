"""Wrong (held-out round 8): returns {} at once when names is empty, so model(x) never runs (in training mode a
BatchNorm's running statistics are not updated) ("runs model(x) once and returns a dict")."""
from course.grading.class_run.submissions import edited

EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": edited(
    "15-01", "capture_impl",
    ('    modules = dict(model.named_modules())\n    missing',
     '    if not names:\n        return {}\n    modules = dict(model.named_modules())\n    missing'))}
