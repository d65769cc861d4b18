"""Hidden checks of graph_nodes and topo_order (exercise 1), against the judge's own walk of next_functions."""
import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, fail

if "course_00_02_graphs" not in sys.modules:  # the same graph recipes, built and walked here by the judge
    _s = importlib.util.spec_from_file_location("course_00_02_graphs", Path(__file__).with_name("probes.py"))
    sys.modules["course_00_02_graphs"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_00_02_graphs"])
G = sys.modules["course_00_02_graphs"]

pytestmark = pytest.mark.task("graph")
RECIPES = {
    "mlp": "((a @ w1).relu() @ w2).log_softmax(-1).sum() (three weight leaves)",
    "diamond": "y = a * b; (y.exp() + y.sin() * y.cos()).sum() (y feeds three nodes)",
    "reused": "(a * a + a - a.exp() * a).sum() (one leaf used five times)",
    "several_outputs": "p, q, s = a.unbind(0); (p * q + s.tanh() * p).sum() (an op with three outputs)",
    "detached": "y = a * b; (y * y.detach() + y.detach().exp()).sum() (a detached branch)",
    "constant_leaf": "(a * c + c.exp() * b).sum() with c not requiring grad (None in next_functions)",
    "siblings": "y = a * b; ((y.exp() + y) + (y + y.sin())).sum() (a node's two inputs where one feeds the other)",
    "long_short": "y = a * b; c = y.exp().tanh().sin().cos().exp(); ((y + c) + (c + y)).sum() (y reached by a "
                  "one-step and a five-step path)",
    "threads": "y = a * b; c = y.tanh() built in one thread, then (c.exp() + c * y).sum() in another (a graph "
               "continued in a second thread, as a pipeline stage does: autograd numbers each thread's nodes from 0, "
               "so creation order is no topological order)",
}
TAIL = ", then 1-4 more operations (* 0.5, tanh, + a.sum()) chosen by the check's seed"
RECIPES = {k: v + TAIL for k, v in RECIPES.items()}


def judged(student, fn, recipe, seed, **kw):
    """The probe's reply for ``fn`` on the graph of (recipe, seed), after checking that the reply describes
    the graph the judge builds itself from the same recipe and seed (changed in place too, with ``rebase``)."""
    res = student.call("graph_walk", fn_name=fn, recipe=recipe, seed=seed, **kw)
    t = G.build_graph(recipe, seed)[0]
    nodes, edges = G._walk(G.rebase_in_place(t) if kw.get("rebase") else t)
    expect(res["names"] == [type(n).__name__ for n in nodes] and res["edges"] == [list(e) for e in edges],
           f"{fn}(t) for the graph of recipe {recipe!r} (seed {seed}): the reply does not describe the graph the "
           f"check built")
    return res


def _seed(gen):
    return int(torch.randint(0, 2**31 - 1, (1,), generator=gen))


def check_nodes(res, fn, what):
    """The returned list holds each node of the judge's walk exactly once and nothing else."""
    got, names = res["got"], res["names"]
    if isinstance(got, str):
        fail(f"{fn}(t) for {what}: expected a list of nodes, got {got}")
    foreign = [g for g in got if isinstance(g, str)]
    if foreign:
        fail(f"{fn}(t) for {what}: returned {foreign[0]}; expected only the graph's nodes")
    dup = sorted({names[i] for i, c in Counter(got).items() if c > 1})  # a Counter: 12000-node chains
    expect(not dup, f"{fn}(t) for {what}: {', '.join(dup)} appear more than once; each node must appear exactly "
                    f"once, even when several paths reach it")
    missing = sorted(names[i] for i in set(range(len(names))) - set(got))
    expect(not missing, f"{fn}(t) for {what}: {len(got)} nodes returned, {len(names)} expected; missing "
                        f"{', '.join(missing)} (AccumulateGrad nodes of leaves count too)")


def check_order(res, what):
    got, names = res["got"], res["names"]
    pos = {n: k for k, n in enumerate(got)}
    for i, j in res["edges"]:
        if pos[i] > pos[j]:
            fail(f"topo_order(t) for {what}: {names[j]} (position {pos[j]}) comes before {names[i]} (position "
                 f"{pos[i]}), which feeds it gradient; every node must come before the nodes in its next_functions")


@pytest.mark.parametrize("recipe", list(RECIPES))
def test_graph_nodes(student, gen, recipe):
    """graph_nodes returns every reachable node once, AccumulateGrad included, None skipped"""
    res = judged(student, "graph_nodes", recipe, _seed(gen))
    check_nodes(res, "graph_nodes", RECIPES[recipe])


@pytest.mark.parametrize("recipe", list(RECIPES))
def test_topo_order(student, gen, recipe):
    """topo_order returns the same nodes, each before the nodes it feeds"""
    res = judged(student, "topo_order", recipe, _seed(gen))
    check_nodes(res, "topo_order", RECIPES[recipe])
    check_order(res, RECIPES[recipe])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 12))
def test_random_graphs(student, seed, n):
    """both functions on random graphs of adds, products, tanh, sin and detached operands"""
    what = f"a random graph of {n} operations (recipe seed {seed})"
    for fn in ("graph_nodes", "topo_order"):
        res = judged(student, fn, f"random:{n}", seed)
        check_nodes(res, fn, what)
        if fn == "topo_order":
            check_order(res, what)


@pytest.mark.parametrize("fn", ["graph_nodes", "topo_order"])
@pytest.mark.parametrize("recipe", ["leaf", "no_graph"])
def test_no_grad_fn(student, gen, fn, recipe):
    """a tensor without grad_fn gives an empty list, a new one on each call"""
    what = {"leaf": "a leaf tensor that requires grad", "no_graph": "a * b computed under torch.no_grad()"}[recipe]
    res = student.call("graph_walk", fn_name=fn, recipe=recipe, seed=_seed(gen), appended=True)
    expect(res["got"] == [], f"{fn}(t) for {what}: expected [], got {res['got']}")
    expect(res["again"] == [], f"{fn}(t) called a second time for {what}, after the caller appended a string to the "
                               f"list the first call returned: expected [], got {res['again']} (the first call's "
                               f"list, shared between calls? each call gives an empty list of its own)")


@pytest.mark.parametrize("fn", ["graph_nodes", "topo_order"])
def test_graph_left_usable(student, gen, fn):
    """neither function runs backward or changes the graph"""
    seed = _seed(gen)
    res = judged(student, fn, "diamond", seed, twice=True)
    what = f"after {fn}(t) for {RECIPES['diamond']}"
    expect(res["unchanged"], f"{what}: the graph's nodes or edges changed")
    again = dict(res, got=res["again"])  # a second call on the same tensor must find the same nodes
    check_nodes(again, fn, f"a second call on the same tensor ({RECIPES['diamond']}; state kept from the first "
                           f"call, such as a shared seen set?)")
    if fn == "topo_order":
        check_order(again, f"a second call on the same tensor ({RECIPES['diamond']})")
    expect(res["backward_ran"] == 0, f"while {fn}(t) ran, t.grad_fn ran {res['backward_ran']} time(s) (seen by a "
                                     f"pre-hook the grader put on it): {fn} must not run a backward pass "
                                     f"(torch.autograd.grad or backward) to find or order the nodes; follow "
                                     f"next_functions")
    err = res["backward"]
    expect(not err["raised"], f"{what}: t.backward() raised {err['type']}: {err['message'][:150]}")
    out, leaves = G.build_graph("diamond", seed)  # the judge's own fresh graph and its gradients
    out.backward()
    for k, (g, e) in enumerate(zip(res["grads"], [x.grad for x in leaves])):
        expect(g is not None and torch.allclose(g, e, rtol=1e-10, atol=1e-12),
               f"{what}: one t.backward() gave leaf {k} a .grad different from a fresh graph's (was backward run "
               f"inside {fn}?)")


@pytest.mark.parametrize("fn", ["graph_nodes", "topo_order"])
def test_after_in_place_op(student, gen, fn):
    """called on t, then again after an in-place op on t (t.mul_(0.5) gives t a new grad_fn): the second call walks
    from the new t.grad_fn"""
    what = (f"a second call on the same tensor t after t.mul_(0.5) (the first call was on t = "
            f"{RECIPES['diamond']}; the in-place op gave t a new grad_fn, MulBackward0, whose input is the old one, "
            f"so the answer must follow the new t.grad_fn; an answer kept per tensor from the first call is stale)")
    res = judged(student, fn, "diamond", _seed(gen), rebase=True)
    check_nodes(res, fn, what)
    if fn == "topo_order":
        check_order(res, what)


@pytest.mark.parametrize("fn", ["graph_nodes", "topo_order"])
def test_residual_chain(student, gen, fn):
    """a chain of 32 to 47 residual blocks (2**k paths): every node once, in order, each node's inputs visited once"""
    k = 32 + int(torch.randint(0, 16, (1,), generator=gen))  # drawn per student: the reply differs with k
    what = (f"y = a * b, then y = y + y.tanh() {k} times, then y.sum() (a chain of residual blocks: 2**{k} paths "
            f"from the output down to a; a walk must visit each node's inputs once, not once per path)")
    res = judged(student, fn, f"ladder:{k}", _seed(gen), timeout=15)
    check_nodes(res, fn, what)
    if fn == "topo_order":
        check_order(res, what)


@pytest.mark.parametrize("fn", ["graph_nodes", "topo_order"])
def test_deep_chain(student, gen, fn):
    """a chain of 11000 to 11999 tanh nodes (deeper than Python's recursion limit, also once raised to the usual
    10000): every node once, in order"""
    n = 11000 + int(torch.randint(0, 1000, (1,), generator=gen))
    what = (f"y = a * b, then y = y.tanh() {n} times, then y.sum() (a graph {n + 2} nodes deep, like an unrolled "
            f"recurrence; graph_nodes(t) and topo_order(t) are asked for any tensor t, so a walk that recurses once "
            f"per node raises RecursionError at Python's recursion limit, 1000, or 10000 where sys.setrecursionlimit "
            f"raised it; use a loop with a stack)")
    res = judged(student, fn, f"chain:{n}", _seed(gen), timeout=15)  # a RecursionError fails the check here
    check_nodes(res, fn, what)
    if fn == "topo_order":
        check_order(res, what)
