"""Hidden checks for swap_relu (exercise 5). The judge recomputes each model with the new activation."""
import importlib.util
import sys
from pathlib import Path

if "course_15_06_judge" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_15_06_judge", Path(__file__).with_name("judge.py"))
    sys.modules["course_15_06_judge"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_15_06_judge"])
J = sys.modules["course_15_06_judge"]
P = J.P
import pytest
import torch
from hypothesis import given, strategies as st

from course.judge.expect import expect, expect_close

pytestmark = pytest.mark.task("swap_relu")

RELU_OPS = ["relu_mod", "relu_fn", "relu_torch", "relu_method", "relu_inplace", "relu_torch_",
            "relu_method_"]
OTHER_OPS = ["lin", "relu6", "leaky", "tanh_method", "scale", "add_input", "relu_named_helper", "relu6_mod"]


def _reference(ops, state, new, x, y):
    model = P.build_opsnet(ops, state)
    with torch.no_grad():
        orig = model(x, y)
        model.override = P.NEW_FNS[new]
        swapped = model(x, y)
    return orig, swapped


def _is_relu(n):
    return ((n["op"] == "call_module" and n.get("type") == "ReLU")
            or (n["op"] == "call_function" and n["target"] in ("torch.nn.functional.relu", "torch.relu",
                                                                  "torch.relu_", "torch.nn.functional.relu_"))
            or (n["op"] == "call_method" and n["target"] in ("relu", "relu_")))


def _run(student, ops, new, gen):
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    x = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    y = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    orig, want = _reference(ops, state, new, x, y)
    res = student.call("swap", ops=ops, state=state, new=new, x=x, y=y)
    what = f"swap_relu(model, {P.NEW_FNS[new].__name__}) for a model whose forward does {ops}"
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']} (the task: "
                                            f"swap_relu returns a GraphModule that \"runs\")")
    expect(not res["lint"]["raised"], f"{what}: the resulting graph does not lint: {res['lint']['message'][:200]}")
    return res, orig, want, what


@J.hyp(12)
@given(ops=st.lists(st.sampled_from(RELU_OPS + OTHER_OPS), min_size=1, max_size=7),
       new=st.sampled_from(sorted(P.NEW_FNS)), seed=st.integers(0, 2**31 - 1))
def test_random_models(student, ops, new, seed):
    """the rewritten model computes the original with every ReLU replaced (random models, several new functions)"""
    res, orig, want, what = _run(student, ops, new, torch.Generator().manual_seed(seed))
    expect_close(res["out"], want, f"{what}: output on random inputs", atol=1e-10, rtol=1e-8)
    expect_close(res["orig"], orig, f"{what}: the ORIGINAL model's output after swapping (leave model unchanged)",
                 atol=1e-12, rtol=1e-10)


def test_every_relu_form_replaced(student, gen):
    """module, functional, torch.* , method and in-place ReLUs are all replaced; F.relu6, nn.ReLU6 and LeakyReLU stay"""
    ops = ["relu_mod", "lin", "relu_fn", "relu6", "relu_torch", "leaky", "relu_method", "scale", "relu_inplace",
           "relu6_mod"]
    res, orig, want, what = _run(student, ops, "tanh", gen)
    left = [n["name"] for n in res["nodes"] if _is_relu(n)]
    expect(not left, f"{what}: ReLU node(s) {left} are still in the graph")
    expect(any(n["target"] == "torch.nn.functional.relu6" for n in res["nodes"]),
           f"{what}: F.relu6 was removed, but it is not a ReLU and must be left as it is")
    expect(any(n.get("type") == "LeakyReLU" for n in res["nodes"]),
           f"{what}: the nn.LeakyReLU call was removed, but it is not a ReLU and must be left as it is")
    expect(any(n.get("type") == "ReLU6" for n in res["nodes"]),
           f"{what}: the nn.ReLU6 module call was removed, but the task lists nn.ReLU6 among the look-alikes that "
           f"\"must be left alone\" (check the module's type: isinstance(module, nn.ReLU))")
    n_relu = sum(op in RELU_OPS for op in ops)
    expect(res["n_new"] == n_relu, f"{what}: expected {n_relu} call_function nodes calling the new function, "
                                   f"found {res['n_new']}")
    expect_close(res["out"], want, f"{what}: output on random inputs", atol=1e-10, rtol=1e-8)


def test_original_unchanged(student, gen):
    """swap_relu leaves the model it is given unchanged (its output, and for a model in training mode its modes and
    state); called again after the model changed, it swaps the model as it is then"""
    ops = ["relu_mod", "lin", "relu_method", "relu_mod"]
    res, orig, want, what = _run(student, ops, "gelu", gen)
    expect_close(res["orig"], orig, f"{what}: the ORIGINAL model's output after swapping (it must not change)",
                 atol=1e-12, rtol=1e-10)
    # the same model in training mode: its modes and state stay, and the result computes the training-mode graph
    ops = ["relu_mod", "train_branch", "lin", "relu_method"]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    model.train()
    x = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    y = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        model.override = P.NEW_FNS["gelu"]
        want = model(x, y)
    res = student.call("swap_leave_model", ops=ops, state=state, new="gelu", x=x, y=y)
    what = (f"swap_relu(model, gelu) for a model in training mode whose forward does {ops} ('train_branch' is "
            f"x * 2.0 if self.training else x.neg())")
    changed = sorted(k for k in res["before"] if res["after"].get(k) != res["before"][k])
    expect(not changed, f"{what}: the model's modes changed for {changed[:4]} (before "
                        f"{[res['before'][k] for k in changed[:4]]}, after {[res['after'].get(k) for k in changed[:4]]}); "
                        f"the task: \"leave model unchanged\" (trace it as it is, do not switch its mode)")
    expect(res["state_same"], f"{what}: the model's parameters or buffers changed; the task: \"leave model unchanged\"")
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']}")
    expect_close(res["out"], want, f"{what}: the result's output (the model's training-mode graph with every ReLU "
                 f"replaced)", atol=1e-10, rtol=1e-8)
    # held-out round 29: the same model changed (eval mode, model.first replaced, one more op), then swapped again
    P.change_opsnet(model)
    with torch.no_grad():
        want_again = model(x, y)
    again = (f"{what}, then the same model changed (model.eval(); model.first = nn.Sequential(nn.Linear(6, 6), "
             f"nn.Tanh()); model.ops += ['tanh_method']) and swap_relu(model, gelu) called again")
    expect(not res["same_object"], f"{again}: the second call returned the very GraphModule of the first call (the "
                                   f"task: trace model and replace its ReLUs, each call: the model has changed)")
    expect(not isinstance(res["out_again"], str), f"{again}: the second result did not return a tensor: "
                                                  f"{res['out_again']}")
    expect_close(res["out_again"], want_again, f"{again}: the second result's output (the changed model's eval-mode "
                 f"graph with every ReLU replaced; a graph kept from the first call computes the old model)",
                 atol=1e-10, rtol=1e-8)


@pytest.mark.parametrize("ops", [["lin", "relu_torch_", "scale"], ["relu_method_", "lin", "relu_method_"]],
                         ids=["torch.relu_", "x.relu_()"])
def test_inplace_relu_forms(student, gen, ops):
    """the in-place forms torch.relu_(x) and x.relu_() are ReLUs too and get replaced"""
    res, orig, want, what = _run(student, ops, "sigmoid", gen)
    left = [n["name"] for n in res["nodes"] if _is_relu(n)]
    expect(not left, f"{what}: in-place ReLU node(s) {left} are still in the graph")
    expect_close(res["out"], want, f"{what}: output on random inputs", atol=1e-10, rtol=1e-8)


def test_relu_input_by_keyword(student, gen):
    """torch.relu(input=x), torch.relu_(input=x) and an nn.ReLU module called as m(input=x) are ReLUs too: fx keeps
    their input in node.kwargs, and new_fn gets that input"""
    res, orig, want, what = _run(student, ["lin", "relu_kw", "scale", "relu_kw_", "relu_mod_kw"], "sigmoid", gen)
    what += " (relu_mod_kw: an nn.ReLU module called with its keyword, self.act(input=x): node.args is empty)"
    left = [n["name"] for n in res["nodes"] if _is_relu(n)]
    expect(not left, f"{what}: ReLU node(s) {left} are still in the graph")
    expect_close(res["out"], want, f"{what}: output on random inputs", atol=1e-10, rtol=1e-8)


def test_shared_module_and_unused_relu_replaced(student, gen):
    """an nn.ReLU module that forward calls twice, and a ReLU whose result forward never uses, are replaced too"""
    ops = ["lin", "relu_shared", "scale", "dead_relu", "relu_shared"]
    res, orig, want, what = _run(student, ops, "tanh", gen)
    what += " (relu_shared: one nn.ReLU module called at both places; dead_relu: F.relu(x) whose result is unused)"
    left = [n["name"] for n in res["nodes"] if _is_relu(n)]
    expect(not left, f"{what}: ReLU node(s) {left} are still in the graph")
    expect(res["n_new"] == 3, f"{what}: expected 3 call_function nodes calling the new function (one per ReLU, also "
                              f"the unused one), found {res['n_new']}")
    expect_close(res["out"], want, f"{what}: output on random inputs", atol=1e-10, rtol=1e-8)


@pytest.mark.parametrize("new", sorted(P.RELU_NEW_FNS))
def test_new_fn_that_is_a_relu(student, gen, new):
    """new_fn may itself be a ReLU function (torch.relu, F.relu): each ReLU is replaced by one call of it, once (a
    walk over the live node list that matches its own new nodes never ends), and the model computes what it did"""
    ops = ["lin", "relu_mod", "scale", "relu_fn", "relu_torch", "relu_method", "relu_inplace", "relu_torch_",
           "relu_method_"]
    ops = ["lin"] + [ops[i] for i in torch.randperm(len(ops), generator=gen)]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    x = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    y = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    model.eval()
    with torch.no_grad():
        want = model(x, y)
    limit = 2000
    r = student.call("capped", probe="swap", limit=limit, ops=ops, state=state, new=new, x=x, y=y)
    what = f"swap_relu(model, {new}) for a model whose forward does {ops}"
    expect(not r["capped"], f"{what}: it created more than {limit} graph nodes and was stopped there (the model's "
                            f"graph has about {len(ops) * 2 + 4}); walking gm.graph.nodes while inserting visits each "
                            f"new call of new_fn, which is again a ReLU: walk a list(...) of the original nodes")
    res = r["result"]
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']} (the task: "
                                            f"swap_relu returns a GraphModule that \"runs\")")
    expect(not res["lint"]["raised"], f"{what}: the resulting graph does not lint: {res['lint']['message'][:200]}")
    n_relu = sum(op in RELU_OPS for op in ops)
    expect(res["n_new"] == n_relu, f"{what}: expected {n_relu} call_function nodes calling {new} (one per ReLU), "
                                   f"found {res['n_new']}")
    expect_close(res["out"], want, f"{what}: output on random inputs (a ReLU swapped for a ReLU computes the same)",
                 atol=1e-10, rtol=1e-8)


def test_function_named_relu_left_alone(student, gen):
    """a function named relu that is none of the four ReLU forms (a user helper computing ReLU6, one node through
    torch.fx.wrap) stays: a ReLU is matched by its function object, not by its name"""
    ops = ["lin", "relu_named_helper", "relu_fn", "lin", "relu_named_helper", "relu_method"]
    res, orig, want, what = _run(student, ops, "sigmoid", gen)
    what += (" (relu_named_helper: a call of the model module's own function relu(x) = x.clamp(0, 6), wrapped with "
             "torch.fx.wrap)")
    kept = res["n_helper"]
    expect(kept == 2, f"{what}: expected the 2 calls of the helper relu (a ReLU6, not a ReLU) to stay, found {kept}; "
                      f"the task names the targets (torch.nn.functional.relu, torch.relu, torch.relu_, the method "
                      f"'relu') and says look-alikes \"are different functions that must be left alone\"")
    expect(res["n_new"] == 2, f"{what}: expected 2 call_function nodes calling the new function (F.relu and "
                              f".relu()), found {res['n_new']}")
    expect_close(res["out"], want, f"{what}: output on random inputs", atol=1e-10, rtol=1e-8)


def test_graphmodule_input_left_unchanged(student, gen):
    """model given as an fx.GraphModule (fx.symbolic_trace of a model): a new GraphModule is returned and the given
    one keeps its graph, its modules and its output"""
    ops = ["relu_mod", "lin", "relu_fn", "scale", "relu_method"]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    x = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    y = torch.randn(4, 6, generator=gen, dtype=torch.float64)
    orig, want = _reference(ops, state, "tanh", x, y)
    res = student.call("swap_graphmodule", ops=ops, state=state, new="tanh", x=x, y=y)
    what = f"swap_relu(gm, tanh) for gm = fx.symbolic_trace(model), a model whose forward does {ops}"
    expect(not res["same_object"], f"{what}: returned the GraphModule it was given; the task: \"Return a "
                                   f"`GraphModule` ...; leave `model` unchanged\" (a GraphModule is a model too)")
    expect(not res["graph_changed"], f"{what}: the given GraphModule's graph changed (its ReLU nodes replaced?); the "
                                     f"task: \"leave `model` unchanged\" (trace it: symbolic_trace makes a new one)")
    expect(not res["modules_changed"], f"{what}: the given GraphModule's submodules {res['modules_changed']} were "
                                       f"replaced or removed; the task: \"leave `model` unchanged\"")
    expect_close(res["in_after"], orig, f"{what}: the given GraphModule's output afterwards (it must not change)",
                 atol=1e-12, rtol=1e-10)
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']}")
    expect_close(res["out"], want, f"{what}: the result's output (every ReLU replaced by tanh)", atol=1e-10, rtol=1e-8)
