"""Hidden checks for make_recording_backend (exercise 6).

The expected graphs come from torch._dynamo.explain on the judge's own copy of
each function; nothing is timed.
"""
import importlib.util
import sys
from pathlib import Path

if "course_15_06_judge" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_15_06_judge", Path(__file__).with_name("judge.py"))
    sys.modules["course_15_06_judge"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_15_06_judge"])
J = sys.modules["course_15_06_judge"]
P = J.P
from collections import Counter

import pytest
import torch

from course.judge.expect import expect, expect_close

pytestmark = pytest.mark.task("recording_backend")


_EXPLAINED = {}


def _explain(f, x):
    """Dynamo's own graphs for f on inputs shaped like x (cached: they depend only on the code and the shape)."""
    key = (getattr(f, "__name__", type(f).__name__), tuple(x.shape), x.dtype)
    if key not in _EXPLAINED:
        _EXPLAINED[key] = _explain_now(f, x)
    return _EXPLAINED[key]


def _explain_now(f, x):
    torch._dynamo.reset()
    try:
        ex = torch._dynamo.explain(f)(x)
    finally:
        torch._dynamo.reset()
    return [[{"op": n.op, "target": P.target_name(n.target)} for n in g.graph.nodes] for g in ex.graphs]


def _ops(graph):
    return Counter(f"{n['op']}:{n['target']}" for n in graph if n["op"] in ("call_function", "call_method"))


def _short_names(graph):
    """The names a printed graph shows for its torch functions and methods (operator.* prints as + or *)."""
    return {n["target"].rsplit(".", 1)[-1] for n in graph if n["op"] in ("call_function", "call_method")
            and not n["target"].startswith(("operator.", "_operator."))}


def _check(student, fname, x, f, state=None, recast=False):
    """Two calls on an x that requires grad (the second from Dynamo's cache), the gradient of the first result,
    and with ``recast`` a third call on x.float(): a recompilation whose graphs have the same code as the first
    ones, which the backend must print and record again (the judge's graphs: torch._dynamo.explain)."""
    want_graphs = _explain(f, x) + (_explain(f, x.float()) if recast else [])
    with torch.no_grad():
        want1, want2 = f(x), f(x * 0.5)
        want3 = f(x.float()) if recast else None
    xg = x.clone().requires_grad_(True)
    want_grad = torch.autograd.grad(f(xg).sum(), xg)[0]
    res = student.call("backend_capture", fname=fname, x=x, state=state, recast=recast)
    calls = "two calls with the same shapes, then one on x.float() (a recompilation)" if recast else \
        "two calls with the same shapes"
    what = (f"torch.compile({fname}, backend=backend) with (backend, graphs) = make_recording_backend(), {calls}, x "
            f"of shape {tuple(x.shape)} requiring grad")
    expect_close(res["out1"], want1, f"{what}: result of the compiled function", atol=1e-12, rtol=1e-10)
    expect_close(res["out2"], want2, f"{what}: result of a second call", atol=1e-12, rtol=1e-10)
    expect(res["out1_requires_grad"] and res["grad"] is not None,
           f"{what}: the compiled function's result does not require grad although x does, so no gradient reaches "
           f"x; the backend must return gm.forward itself, which runs with autograd like the eager function (not "
           f"a wrapper that runs it under torch.no_grad())")
    expect_close(res["grad"], want_grad, f"{what}: gradient of the first result's sum with respect to x",
                 atol=1e-12, rtol=1e-10)
    if recast:
        expect(res["out3"] is not None, f"{what}: the call on x.float() returned nothing")
        expect_close(res["out3"], want3, f"{what}: result of the call on x.float()", atol=1e-5, rtol=1e-5)
    got = res["graphs"]
    bad = [g for g in got if isinstance(g, str)]
    expect(not bad, f"{what}: 'graphs' should hold the torch.fx.GraphModule objects the backend received, "
                    f"found {bad[:3]}")
    expect(len(got) == len(want_graphs),
           f"{what}: Dynamo captured {len(want_graphs)} graph(s), but 'graphs' holds {len(got)} (keep every graph "
           f"the backend receives, in order, and only those; a recompilation's graphs count too, even when their "
           f"code is the same as an earlier graph's)")
    for i, (g, w) in enumerate(zip(got, want_graphs)):
        expect(_ops(g) == _ops(w), f"{what}: graph {i} in 'graphs' has operations {dict(_ops(g))}, but Dynamo "
                                   f"captured {dict(_ops(w))}")
    printed = res["printed"]
    for name in sorted(set().union(*map(_short_names, want_graphs))):
        n_graphs = sum(name in _short_names(w) for w in want_graphs)
        expect(printed.count(name) >= n_graphs,
               f"{what}: '{name}' occurs in {n_graphs} of the {len(want_graphs)} graphs the backend received, but "
               f"{printed.count(name)} time(s) in what it printed: print every graph it receives, each time "
               f"(print(gm.graph), gm.print_readable() or print(gm.code)). Printed: {printed[:200]!r}")
    return res, want_graphs, what


def test_single_graph(student, gen):
    """a function without graph breaks: one graph recorded per compilation (also a recompilation for float32, whose
    code is the same), with the right operations, results and gradient"""
    x = torch.randn(5, generator=gen, dtype=torch.float64)
    _check(student, "smooth", x, P.dyn_smooth, recast=True)


def test_graph_break(student, gen):
    """a function with a graph break: both graphs recorded and printed, in order, and both again after a
    recompilation for float32"""
    x = torch.randn(2, 3, generator=gen, dtype=torch.float64)
    _check(student, "break", x, P.dyn_break, recast=True)


def test_module_graph_printed(student, gen):
    """compiling an nn.Module: its graph is recorded and printed"""
    f = P.DynMLP().double()
    state = J.randomize(f, gen)
    x = torch.randn(4, 5, generator=gen, dtype=torch.float64)
    res, want_graphs, what = _check(student, "mlp", x, f, state=state)
    printed = res["printed"]
    expect(printed.strip() != "", f"{what}: the backend printed nothing; it should print each graph it receives")
    for fn in ("linear", "sigmoid", "softmax"):
        expect(fn in printed, f"{what}: the printed output does not show the graph's '{fn}' operation; print the "
                              f"graph itself (print(gm.graph), gm.print_readable() or print(gm.code)). "
                              f"Printed: {printed[:200]!r}")


def test_in_place_function_computed_once(student, gen):
    """a function that changes its argument in place: the compiled call returns, and leaves in the argument, what
    the plain call does (the backend returns gm.forward and runs nothing itself)"""
    x = torch.randn(4, generator=gen, dtype=torch.float64)
    arg = x.clone()
    want = P.dyn_scale_in_place(arg)
    res = student.call("backend_in_place", x=x)
    what = ("torch.compile(f, backend=backend)(t) with (backend, graphs) = make_recording_backend(), for f(t): "
            "t.mul_(2.0); return t.sin() + 1.0")
    expect(res["n_graphs"] >= 1, f"{what}: the backend recorded no graph")
    expect_close(res["arg_after"], arg, f"{what}: t after the call (the plain call doubles it once; a backend that "
                 f"runs the graph itself, such as gm(*example_inputs), doubles it again, so the compiled function no "
                 f"longer computes the right values)", atol=1e-12, rtol=1e-10)
    expect_close(res["out"], want, f"{what}: the result of the compiled call", atol=1e-12, rtol=1e-10)


@pytest.mark.task("recording_backend", weight=0.1)  # its right answer is a constant (empty): worth little
def test_fresh_empty_list(student):
    """make_recording_backend() returns a new, empty list on every call (no list shared between backends)"""
    r = student.call("backend_fresh")
    what = "make_recording_backend() called twice before anything is compiled"
    for key in ("first", "second"):
        g = r[key]
        expect(g["pair"], f"{what}: the {key} call did not return a pair (backend, graphs)")
        expect(g["graphs_type"] == "list" and g["length"] == 0,
               f"{what}: 'graphs' of the {key} call should be an empty list, got {g['graphs_type']} of length "
               f"{g['length']}")
    expect(not r["same_list"], f"{what}: both calls returned the very same 'graphs' list; create a new list inside "
                               f"make_recording_backend so each backend records only its own graphs")


def test_recompilation_for_another_shape(student, gen):
    """a recompilation for another input shape (Dynamo then passes the size as a SymInt input next to the tensor):
    its graph is recorded and printed too, and the compiled function computes the right values"""
    x = torch.randn(5, generator=gen, dtype=torch.float64)
    x2 = torch.randn(7, generator=gen, dtype=torch.float64)
    want_counts = []
    seen = []

    def counting(gm, example_inputs):  # the judge's own backend: how many graphs Dynamo hands over
        seen.append(gm)
        return gm.forward

    torch._dynamo.reset()
    try:
        compiled = torch.compile(P.dyn_smooth, backend=counting)
        for t in (x, x2):
            compiled(t.clone())
            want_counts.append(len(seen))
    finally:
        torch._dynamo.reset()
    res = student.call("backend_reshape", x=x, x2=x2)
    what = ("torch.compile(f, backend=backend) with (backend, graphs) = make_recording_backend(), for f(x) = "
            "sin(x) * tanh(x) + x.cos(), called on x of shape (5,) and then on x of shape (7,)")
    expect(res["error"] is None, f"{what}: raised {res['error']} (the task: every graph Dynamo captures must end up "
                                 f"in graphs and the compiled function still computes the right values; after a "
                                 f"shape change Dynamo's example_inputs also hold SymInt sizes, not only tensors)")
    for t, o in zip((x, x2), res["outs"]):
        expect_close(o, P.dyn_smooth(t), f"{what}: the result for x of shape {tuple(t.shape)}", atol=1e-12,
                     rtol=1e-10)
    expect(res["counts"] == want_counts,
           f"{what}: graphs recorded after each call {res['counts']}, expected {want_counts} (Dynamo compiles a "
           f"new graph for the new shape: it must end up in graphs too)")
    expect(all(res["gm"]), f"{what}: 'graphs' should hold the torch.fx.GraphModule objects the backend received")
    expect(res["printed"].count("tanh") >= want_counts[-1],
           f"{what}: the backend received {want_counts[-1]} graphs, each with a tanh, but 'tanh' occurs "
           f"{res['printed'].count('tanh')} time(s) in what it printed: print every graph it receives")


def test_graph_break_piece_without_inputs(student, gen):
    """a graph break whose second piece reads no input (it only builds a new tensor: a graph without placeholders):
    that graph is recorded and printed too, and the compiled function computes the right values"""
    x = torch.randn(3, generator=gen, dtype=torch.float64)
    seen = []

    def counting(gm, example_inputs):  # the judge's own backend: the graphs Dynamo hands over
        seen.append(sum(1 for n in gm.graph.nodes if n.op == "placeholder"))
        return gm.forward

    torch._dynamo.reset()
    try:
        torch.compile(P.dyn_break_fresh, backend=counting)(x.clone())
    finally:
        torch._dynamo.reset()
    want = P.dyn_break_fresh(x.clone())
    res = student.call("backend_no_input", x=x)
    what = ("torch.compile(f, backend=backend)(x) with (backend, graphs) = make_recording_backend(), for f(x): "
            "y = torch.sin(x) + 1.0; torch._dynamo.graph_break(); z = torch.linspace(-1.0, 1.0, 5, "
            "dtype=torch.float64).exp(); return y, z")
    expect(res["error"] is None, f"{what}: raised {res['error']} (the task: every graph Dynamo captures, one per "
                                 f"graph break piece, must end up in graphs; the second piece's graph reads no "
                                 f"input, so its example_inputs is empty)")
    expect(res["n_graphs"] == len(seen), f"{what}: {res['n_graphs']} graph(s) recorded, expected {len(seen)} (one per "
                                         f"graph break piece; the second has {seen[-1] if seen else '?'} inputs)")
    expect(res["out"] is not None and len(res["out"]) == 2, f"{what}: the compiled call returned no pair (y, z)")
    for label, o, w in zip(("y", "z"), res["out"], want):
        expect_close(o, w, f"{what}: the compiled function's {label}", atol=1e-12, rtol=1e-10)
    expect(res["printed"].count("linspace") >= 1,
           f"{what}: the graph with torch.linspace was not printed (printed: {res['printed'][-200:]!r}); the backend "
           f"prints every graph it receives")
