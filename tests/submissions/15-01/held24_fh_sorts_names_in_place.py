"""Round 24 (held out): capture_activations sorts the caller's list of names in place (names.sort(), for a
deterministic hook order) before checking them. The returned dict is right, but the caller's list is
reordered: capture_activations(model, ["4", "1"], x) leaves the list as ["1", "4"]. A wrong side effect on an
argument. Round 24 found the text silent on it; it now says "and the caller's list `names` is left as it was"
(test_capture_matches_reference reads the list the probe passed)."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    "    modules = dict(model.named_modules())",
    "    names.sort()\n    modules = dict(model.named_modules())"))}
