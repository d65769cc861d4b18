"""Hidden checks for count_ops (exercise 1)."""
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
import torch.fx as fx
from collections import Counter
from hypothesis import given, strategies as st

from course.judge.expect import expect, expect_equal

pytestmark = pytest.mark.task("count_ops")

ALL_OPS = ["lin", "reuse", "relu_mod", "relu_fn", "relu_torch", "relu_method", "relu_inplace",
           "relu_torch_", "relu_method_", "relu6", "leaky", "tanh_method", "scale", "add_input", "flat_view", "dead"]


def _expected(model):
    return dict(Counter(n.op for n in fx.symbolic_trace(model).graph.nodes))


def _normal(d):
    return {k: v for k, v in d.items() if v != 0}


def _check(got, want, what):
    got_n = _normal(got)
    for op in sorted(set(want) | set(got_n)):
        if got_n.get(op, 0) != want.get(op, 0):
            extra = ""
            if op == "call_module":
                extra = (" (count call_module graph nodes: a module called twice is two nodes, "
                         "a module forward never calls is none)")
            elif op in ("get_attr", "call_method", "call_function"):
                extra = f" (every '{op}' node of the traced graph counts)"
            expect(False, f"{what}: expected {want.get(op, 0)} '{op}' node(s), your count_ops said "
                          f"{got_n.get(op, 0)}{extra}; full expected counts {dict(sorted(want.items()))}, "
                          f"yours {dict(sorted(got.items()))}")


def test_every_kind_of_node(student, gen):
    """count_ops counts all six opcodes on a model with reused and unused modules, methods and attributes"""
    ops = ["lin", "reuse", "relu_mod", "scale", "relu_method", "flat_view", "add_input", "relu_fn", "tanh_method",
           "reuse", "relu_torch"]
    ops += [ALL_OPS[i] for i in torch.randint(0, len(ALL_OPS), (int(torch.randint(2, 7, (1,), generator=gen)),),
                                              generator=gen)]  # and a few more, drawn per student
    ops = [ops[i] for i in torch.randperm(len(ops), generator=gen)]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    want = _expected(model)
    got = student.call("count_ops", ops=ops, state=state, twice=True)
    what = f"count_ops(model) for a model whose forward does {ops} (two inputs)"
    _check(got[0], want, what)
    expect_equal(got[1], got[0], "count_ops called a second time on the same model")


@J.hyp(10)
@given(ops=st.lists(st.sampled_from(ALL_OPS), min_size=0, max_size=8), seed=st.integers(0, 2**31 - 1))
def test_random_models(student, ops, seed):
    """count_ops matches torch.fx's own graph on random models"""
    gen = torch.Generator().manual_seed(seed)
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    _check(student.call("count_ops", ops=ops, state=state), _expected(model),
           f"count_ops(model) for a model whose forward does {ops}")


def test_nested_modules(student, gen):
    """count_ops on a conv stack with nested submodules (a residual block)"""
    desc = [dict(kind="conv", cin=3, cout=4, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu")]
    for _ in range(int(torch.randint(1, 5, (1,), generator=gen))):  # one to four residual blocks
        desc.append(dict(kind="skip", c=4, k=3, bias=bool(torch.randint(0, 2, (1,), generator=gen))))
        if bool(torch.randint(0, 2, (1,), generator=gen)):
            desc.append(dict(kind="relu"))
    desc.append(dict(kind="bn", c=4))
    model = P.build_convnet(desc, J.randomize(P.ConvNet(desc).double(), gen))
    _check(student.call("count_ops_convnet", desc=desc, state=model.state_dict()), _expected(model),
           f"count_ops(model) for {J.fmt_desc(desc)}")


def test_unused_results_still_count(student, gen):
    """count_ops counts every node of the traced graph, also operations whose result is never used"""
    live = ["relu_fn", "tanh_method", "lin", "scale"]
    ops = [live[i] for i in torch.randint(0, 4, (int(torch.randint(2, 6, (1,), generator=gen)),), generator=gen)]
    ops += ["dead"] * int(torch.randint(2, 8, (1,), generator=gen))
    ops = ["lin"] + [ops[i] for i in torch.randperm(len(ops), generator=gen)]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    _check(student.call("count_ops", ops=ops, state=state), _expected(model),
           f"count_ops(model) for a model whose forward does {ops} ('dead' computes x.sum() and discards it; "
           f"symbolic_trace still records it)")


@pytest.mark.parametrize("train", [True, False], ids=["training", "eval"])
def test_traces_model_in_its_mode(student, gen, train):
    """count_ops traces the model as it is given: a forward that branches on self.training gives other nodes in
    training mode than in eval mode"""
    ops = ["lin", "train_branch", "relu_fn", "train_branch", "scale"]
    ops += ["train_branch"] * int(torch.randint(0, 3, (1,), generator=gen))
    ops = ["lin"] + [ops[i] for i in torch.randperm(len(ops), generator=gen)]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    model.train(train)
    want = _expected(model)
    mode = "training" if train else "eval"
    _check(student.call("count_ops", ops=ops, state=state, train=train), want,
           f"count_ops(model) for a model in {mode} mode whose forward does {ops} ('train_branch' is "
           f"x * 2.0 if self.training else x.neg(): tracing runs that Python branch for the mode model is in; "
           f"trace model itself, not a copy switched to another mode)")


def test_traces_model_at_each_call(student, gen):
    """count_ops traces the model at each call: the same model counted in eval mode, switched to training mode and
    counted again, then back in eval mode with a submodule replaced, then with only a plain attribute that forward
    reads changed, then a GraphModule of it whose stored graph keeps a Sequential as one node: each count is the
    graph that tracing the model at that call gives"""
    ops = ["lin", "train_branch", "relu_fn", "train_branch", "tanh_method"]
    ops += ["train_branch"] * int(torch.randint(1, 3, (1,), generator=gen))
    ops = ["lin"] + [ops[i] for i in torch.randperm(len(ops), generator=gen)]
    model = P.build_opsnet(ops)
    state = J.randomize(model, gen)
    model.eval()
    want_eval = _expected(model)
    model.train()
    want_train = _expected(model)
    model.eval()
    P.swap_first_layer(model)
    want_swapped = _expected(model)
    P.extend_ops(model)
    want_extended = _expected(model)
    want_gm = _expected(P.leaf_sequential_graphmodule(model))  # held-out round 29: symbolic_trace of a GraphModule
    got = student.call("count_ops_flip", ops=ops, state=state, train=False)
    what = (f"count_ops(model) for a model whose forward does {ops} ('train_branch' is x * 2.0 if self.training "
            f"else x.neg())")
    _check(got[0], want_eval, f"{what}, model in eval mode")
    _check(got[1], want_train, f"{what}, called again on the same model after model.train() (the task: count_ops "
                               f"\"symbolically trace[s] model\" and counts the nodes of that graph, each call: "
                               f"counts kept from an earlier call describe the model as it was then)")
    _check(got[2], want_swapped, f"{what}, called a third time on the same model, back in eval mode, after "
                                 f"model.first = nn.Sequential(nn.Linear(6, 6), nn.Tanh()) (each call traces the "
                                 f"model as it is then, its submodules too)")
    expect(len(got) == 5, f"{what}: count_ops_flip made {len(got)} counts, expected 5")
    _check(got[3], want_extended, f"{what}, called a fourth time on the same model, in the same mode and with the same "
                                  f"submodules, after model.ops = model.ops + ['tanh_method'] (a plain Python attribute "
                                  f"that forward reads: one more x.tanh() call; the task: \"keep nothing from an earlier "
                                  f"call\", so a cache keyed on the mode and the submodules gives the earlier graph's "
                                  f"counts)")
    _check(got[4], want_gm, f"{what}, called a fifth time, on gm = fx.GraphModule(model, tracer.trace(model)) made by a "
                            f"tracer that keeps nn.Sequential as a leaf (its stored graph has ONE call_module node for "
                            f"model.first = nn.Sequential(nn.Linear(6, 6), nn.Tanh())); the task: count_ops "
                            f"\"symbolically trace[s] model\", and fx.symbolic_trace(gm) goes into the Sequential "
                            f"(first.0 and first.1): trace a GraphModule too, do not count the graph it holds")
