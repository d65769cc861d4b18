"""Round 26 (held out): capture_activations handles the root name "" apart: it removes "" from names (in place)
and stores the detached output of model(x) itself.

Breaks "the caller's list names is left as it was". Every activation is right, and lists without "" are left
alone, but capture_activations(model, ["", "1"], x) leaves the caller's list as ["1"]."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    "    captured, handles = {}, []",
    "    want_root = \"\" in names\n    if want_root:\n        names.remove(\"\")\n    captured, handles = {}, []"), (
    "        model(x)",
    "        out = model(x)\n        if want_root:\n            captured[\"\"] = out.detach()"))}
