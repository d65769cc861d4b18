"""Wrong (held-out round 8): stores output.detach().float(), so a float64 (or float16) model's activations come
back as float32, not as that submodule's output ("to that submodule's output, detached")."""
from course.grading.class_run.submissions import edited

EXPECT = {'forward_hooks': 'fail'}
CELLS = {"capture_impl": edited(
    "15-01", "capture_impl",
    ('captured[name] = output.detach()',
     'captured[name] = output.detach().float()'))}
