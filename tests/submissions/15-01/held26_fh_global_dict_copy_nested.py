"""Round 26 (held out): capture_activations collects into one module-level dict, cleared at the start of each
call, and returns a copy of it.

Breaks "capture_activations(model, names, x) runs model(x) once and returns a dict mapping each requested
submodule name ... to that submodule's output, detached". Calls one after the other are right (each returns its
own copy, so an earlier result is not changed by a later call), but a call made while another one runs shares
the dict: for an outer model nn.Sequential(nn.Linear(4, 4), Probe(inner), nn.Tanh()) whose Probe module's
forward itself calls capture_activations(inner, ["0"], x) (a feature-extractor/perceptual-loss pattern), the
outer call capture_activations(outer, ["0", "2"], x) gets under "0" the INNER model's Linear output (the inner
call cleared the dict and wrote its own "0"), not the outer Linear's."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    "    captured, handles = {}, []",
    "    _CAPTURED.clear()\n    captured, handles = _CAPTURED, []"), (
    "    return captured",
    "    return dict(captured)"), (
    "def capture_activations(",
    "_CAPTURED = {}\n\n\ndef capture_activations("))}
