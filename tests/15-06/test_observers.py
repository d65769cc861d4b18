"""Hidden checks for insert_observers (exercise 4).

Expected ranges come from forward hooks on the judge's own copy of the model.
"""
import copy
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
import torch.nn as nn

from course.judge.expect import expect, expect_close

pytestmark = pytest.mark.task("insert_observers")


def _setup(gen, n_batches=3):
    model = P.ObsNet().double()
    state = J.randomize(model, gen)
    model.eval()
    batches = [torch.randn(2 + i, 1, 6, 6, generator=gen, dtype=torch.float64) * (1 + i) for i in range(n_batches)]
    return model, state, batches


def _hook_ranges(model, types, batches, names=None):
    """Each module's output range over batches, by forward hooks: the modules of ``types``, or those ``names``."""
    ranges = {}
    hooks = []
    for name, mod in model.named_modules():
        if name and (isinstance(mod, types) if names is None else name in names):
            def hook(m, inp, out, name=name):
                lo, hi = ranges.get(name, (float("inf"), float("-inf")))
                ranges[name] = (min(lo, out.min().item()), max(hi, out.max().item()))
            hooks.append(mod.register_forward_hook(hook))
    with torch.no_grad():
        outs = [model(b) for b in batches]
    for h in hooks:
        h.remove()
    return ranges, outs


@pytest.mark.parametrize("op_types", [["Conv2d"], ["ReLU", "Linear"], ["Linear", "BatchNorm2d", "AdaptiveAvgPool2d"]])
def test_observed_ranges(student, gen, op_types):
    """each observer records the min and max of the module output it follows (compared with forward hooks)"""
    model, state, batches = _setup(gen)
    types = tuple(getattr(nn, t) for t in op_types)
    want, outs = _hook_ranges(model, types, batches)
    res = student.call("observers", state=state, op_types=op_types, batches=batches)
    what = (f"insert_observers(model, ({', '.join('nn.' + t for t in op_types)},)) then {len(batches)} batches "
            f"through the result")
    got = res["stats"]
    missing = sorted(set(want) - set(got))
    expect(not missing, f"{what}: no RangeObserver right after the call(s) of {missing}; observed: {sorted(got)}")
    extra = sorted(set(got) - set(want))
    expect(not extra, f"{what}: RangeObservers were also put after {extra}, which are not of the requested types")
    expect(len(res["placement"]) == len(want),
           f"{what}: expected {len(want)} observer calls in the graph, found {len(res['placement'])}")
    for name, (lo, hi) in sorted(want.items()):
        s = got[name]
        expect(bool(torch.isfinite(s["min"]).all() and torch.isfinite(s["max"]).all()),
               f"{what}: the observer after '{name}' saw no data (min {s['min'].item()}, max {s['max'].item()}); "
               f"is it really called in forward? (did you call gm.recompile() after editing the graph?)")
        expect_close(s["min"].reshape(()), torch.tensor(lo, dtype=torch.float64),
                     f"{what}: observed minimum after '{name}'", atol=1e-9, rtol=1e-9)
        expect_close(s["max"].reshape(()), torch.tensor(hi, dtype=torch.float64),
                     f"{what}: observed maximum after '{name}'", atol=1e-9, rtol=1e-9)
    expect(len(res["outs"]) == len(outs), f"{what}: {len(res['outs'])} outputs came back for {len(outs)} batches")
    for i, (o, w) in enumerate(zip(res["outs"], outs)):
        expect_close(o, w, f"{what}: output for batch {i} (observers must not change the values)", atol=1e-12,
                     rtol=1e-10)
    expect(len(res["ref_outs"]) == len(outs), f"{what}: {len(res['ref_outs'])} outputs of the original model came "
                                              f"back for {len(outs)} batches")
    for i, (o, w) in enumerate(zip(res["ref_outs"], outs)):
        expect_close(o, w, f"{what}: the ORIGINAL model's output for batch {i} afterwards (do not change model)",
                     atol=1e-12, rtol=1e-10)
    expect(not res["orig_has_obs"], f"{what}: the original model now contains RangeObservers; it must not change")


def test_graph_structure(student, gen):
    """observers sit right after the observed node, take over all its users, and the graph lints"""
    model, state, batches = _setup(gen, 1)
    res = student.call("observers", state=state, op_types=["Conv2d", "ReLU"], batches=batches)
    what = "insert_observers(model, (nn.Conv2d, nn.ReLU))"
    expect(not res["lint"]["raised"], f"{what}: the resulting graph does not lint: {res['lint']['message'][:200]}")
    expect(len(res["placement"]) > 0, f"{what}: no RangeObserver calls found in the returned graph")
    for p in res["placement"]:
        expect(not p["self_loop"], f"{what}: observer node '{p['observer']}' takes itself as input (use "
                                   f"replace_all_uses_with(obs, delete_user_cb=lambda u: u is not obs))")
        expect(p["observed_users"] == [p["observer"]],
               f"{what}: after inserting '{p['observer']}', the observed node '{p['observed']}' should be used "
               f"only by its observer, but its users are {p['observed_users']} (redirect the old users)")
    expect(res["code_mentions"] == len(res["placement"]),
           f"{what}: only {res['code_mentions']} of {len(res['placement'])} observers appear in gm.code: "
           f"call gm.recompile() after changing the graph")
    expect(not res["orig_has_obs"], f"{what}: the original model now contains RangeObservers; it must not change")
    want, _ = _hook_ranges(model, (nn.Conv2d, nn.ReLU), batches)
    for name, (lo, hi) in sorted(want.items()):
        expect(name in res["stats"], f"{what}: no observer after '{name}'")
        expect_close(torch.stack([res["stats"][name]["min"].reshape(()), res["stats"][name]["max"].reshape(())]),
                     torch.tensor([lo, hi], dtype=torch.float64), f"{what}: [min, max] observed after '{name}'",
                     atol=1e-9, rtol=1e-9)


def test_fresh_observers_each_call(student, gen):
    """each call creates new observers: ranges from an earlier, separate call do not leak in"""
    model, state, batches = _setup(gen, 2)
    want, _ = _hook_ranges(model, (nn.Linear,), batches)
    res = student.call("observers", state=state, op_types=["Linear"], batches=batches, call_twice=True)
    what = ("insert_observers(model, (nn.Linear,)) called twice on the same model; the first result saw a batch "
            "100x larger, then the second result saw the test batches")
    for name, (lo, hi) in sorted(want.items()):
        expect(name in res["stats"], f"{what}: no observer after '{name}' in the second result")
        expect_close(res["stats"][name]["max"].reshape(()), torch.tensor(hi, dtype=torch.float64),
                     f"{what}: observed maximum after '{name}' in the second result", atol=1e-9, rtol=1e-9)
        expect_close(res["stats"][name]["min"].reshape(()), torch.tensor(lo, dtype=torch.float64),
                     f"{what}: observed minimum after '{name}' in the second result", atol=1e-9, rtol=1e-9)


def _reuse_setup(gen, op_types, kind="reuse"):
    model = (P.ObsDead() if kind == "dead" else P.ObsReuse()).double()
    state = J.randomize(model, gen)
    model.eval()
    x = torch.randn(5, 4, generator=gen, dtype=torch.float64)
    types = tuple(getattr(nn, t) for t in op_types)
    calls = []
    hooks = [mod.register_forward_hook(lambda m, i, out, name=name: calls.append(
        (name, out.min().item(), out.max().item()))) for name, mod in model.named_modules()
        if name and isinstance(mod, types)]
    with torch.no_grad():
        out = model(x)
    for h in hooks:
        h.remove()
    what = (f"insert_observers(model, ({', '.join('nn.' + t for t in op_types)},)) for a model with lin = "
            f"nn.Linear, sub = NonDynamicallyQuantizableLinear (torch's own subclass of nn.Linear), and act = nn.ReLU called twice; lin's output is used "
            f"inside torch.cat([...]) lists and as a keyword argument")
    return state, x, calls, what, out


def test_subclass_instances_observed(student, gen):
    """a module whose class is a subclass of a type in op_types is an instance of it, so it is observed too"""
    state, x, want, what, _ = _reuse_setup(gen, ["Linear"])
    res = student.call("observers_reuse", state=state, op_types=["Linear"], x=x)
    got = sorted(c["observed"] for c in res["calls"])
    expect(got == sorted(n for n, _, _ in want),
           f"{what}: expected one observer after each of {sorted(n for n, _, _ in want)}, found observers after "
           f"{got} (isinstance(module, op_types) includes subclasses)")
    seen = {c["observed"]: c for c in res["calls"]}
    for name, lo, hi in want:
        expect_close(torch.stack([seen[name]["min"].reshape(()), seen[name]["max"].reshape(())]),
                     torch.tensor([lo, hi], dtype=torch.float64), f"{what}: [min, max] recorded after '{name}'",
                     atol=1e-9, rtol=1e-9)


def test_one_fresh_observer_per_call(student, gen):
    """a module called twice gets two observer calls with two different RangeObservers, each seeing its own call"""
    state, x, want, what, _ = _reuse_setup(gen, ["ReLU"])
    res = student.call("observers_reuse", state=state, op_types=["ReLU"], x=x)
    calls = res["calls"]
    expect(len(calls) == len(want), f"{what}: expected {len(want)} observer calls (one per call of act), found "
                                    f"{len(calls)}")
    expect(len({c["object"] for c in calls}) == len(calls),
           f"{what}: the two calls of act are followed by the same RangeObserver object; every observed call "
           f"needs a fresh observer (a name per graph node, not per module)")
    for k, (c, (name, lo, hi)) in enumerate(zip(calls, want)):
        expect_close(torch.stack([c["min"].reshape(()), c["max"].reshape(())]),
                     torch.tensor([lo, hi], dtype=torch.float64),
                     f"{what}: [min, max] recorded by the observer of call {k + 1} of '{name}'", atol=1e-9,
                     rtol=1e-9)


def test_users_in_lists_and_keywords_rewired(student, gen):
    """every former user reads the observer, also users that get the value inside a list or as a keyword"""
    state, x, want, what, out = _reuse_setup(gen, ["Linear", "ReLU"])
    res = student.call("observers_reuse", state=state, op_types=["Linear", "ReLU"], x=x)
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']}")
    expect_close(res["out"], out, f"{what}: output (observers must not change the values)", atol=1e-12,
                 rtol=1e-10)
    expect(len(res["calls"]) == len(want), f"{what}: expected {len(want)} observer calls, found {len(res['calls'])}")
    for c in res["calls"]:
        expect(not c["other_users"],
               f"{what}: the output of '{c['observed']}' is still read directly by {c['other_users']} besides its "
               f"observer (rewire every user, e.g. with replace_all_uses_with, which also looks inside lists "
               f"and keyword arguments)")


def test_model_left_unchanged(student, gen):
    """insert_observers leaves the given model as it was: its train/eval modes, submodules and state"""
    model, state, _ = _setup(gen, 1)
    r = student.call("observers_leave_model", state=state, op_types=["Conv2d", "Linear"])
    what = "insert_observers(model, (nn.Conv2d, nn.Linear)) for a model in training mode"
    changed = [k for k in r["before"] if r["before"][k] != r["after"].get(k)]
    expect(not changed, f"{what}: it changed the model's submodules {changed[:4]} (modes, hooks or requires_grad; "
                        f"e.g. training {[r['before'][k]['training'] for k in changed[:4]]} before, "
                        f"{[r['after'].get(k, {}).get('training') for k in changed[:4]]} after): do not change model")
    expect(r["names_after"] == r["names_before"], f"{what}: the model's submodules changed from "
                                                  f"{r['names_before']} to {r['names_after']}")
    expect(r["state_same"], f"{what}: the model's state_dict changed")


def test_unused_call_observed_and_in_place_kept(student, gen):
    """a module call whose result forward never uses gets its observer too, and an in-place h.relu_() whose result
    is unused still runs (the result computes exactly what the model computes)"""
    state, x, want, _, out = _reuse_setup(gen, ["Linear"], kind="dead")
    what = ("insert_observers(model, (nn.Linear,)) for a model whose forward does h = lin(x); lin(2 * x - 0.5) "
            "(result unused); h = h - 0.1; h.relu_() (result unused); return act(h - 0.2) + h")
    res = student.call("observers_reuse", state=state, op_types=["Linear"], x=x, kind="dead")
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']}")
    expect_close(res["out"], out, f"{what}: output (observers must not change the values)", atol=1e-12, rtol=1e-10)
    got = [c["observed"] for c in res["calls"]]
    expect(got == [n for n, _, _ in want], f"{what}: expected an observer after each of the {len(want)} calls of "
                                           f"lin (also the one whose result is unused), found observers after {got}")
    for k, (c, (name, lo, hi)) in enumerate(zip(res["calls"], want)):
        expect_close(torch.stack([c["min"].reshape(()), c["max"].reshape(())]),
                     torch.tensor([lo, hi], dtype=torch.float64),
                     f"{what}: [min, max] recorded by the observer of call {k + 1} of '{name}'", atol=1e-9, rtol=1e-9)


def test_training_model_computed_in_training_mode(student, gen):
    """for a model in training mode the result computes what the model computes in training mode (BatchNorm with
    the batch's statistics)"""
    model, state, batches = _setup(gen, 1)
    x = batches[0]
    with torch.no_grad():
        want = copy.deepcopy(model).train()(x)
    r = student.call("observers_leave_model", state=state, op_types=["Conv2d", "Linear"], x=x)
    what = ("insert_observers(model, (nn.Conv2d, nn.Linear)) for a model in training mode (its BatchNorm2d "
            "normalises with the batch's statistics)")
    expect(not isinstance(r["out"], str), f"{what}: the result did not return a tensor: {r['out']}")
    expect_close(r["out"], want, f"{what}: result(x) vs model(x) in training mode, x of shape {tuple(x.shape)}; "
                 f"the result must compute exactly what model computes, in model's mode", atol=1e-12, rtol=1e-10)


def test_every_module_type_observed_once(student, gen):
    """op_types=(nn.Module,): every module call of the model gets one observer, and the observers inserted are
    not observed in turn (a walk over the live node list that matches its own new nodes never ends)"""
    model, state, batches = _setup(gen, 2)
    called = [n.target for n in torch.fx.symbolic_trace(copy.deepcopy(model)).graph.nodes if n.op == "call_module"]
    ranges, outs = _hook_ranges(model, (), batches, names=set(called))
    limit = 1000
    r = student.call("capped", probe="observers", limit=limit, state=state, op_types=["Module"], batches=batches)
    what = (f"insert_observers(model, (nn.Module,)) for a model with {len(called)} module calls ({called}); "
            f"every RangeObserver is an nn.Module too")
    expect(not r["capped"], f"{what}: it created more than {limit} graph nodes and was stopped there (the model's "
                            f"graph has about {len(called) * 2 + 10}); walking gm.graph.nodes while inserting visits "
                            f"each new observer node, which is again an instance of op_types: walk a list(...) "
                            f"of the original nodes")
    res = r["result"]
    expect(len(res["placement"]) == len(called),
           f"{what}: expected {len(called)} observer calls (one per module call of model), found "
           f"{len(res['placement'])}: observed {[p['observed'] for p in res['placement']]}")
    for name, (lo, hi) in sorted(ranges.items()):
        expect(name in res["stats"], f"{what}: no observer after '{name}'; observed: {sorted(res['stats'])}")
        expect_close(torch.stack([res["stats"][name]["min"].reshape(()), res["stats"][name]["max"].reshape(())]),
                     torch.tensor([lo, hi], dtype=torch.float64), f"{what}: [min, max] observed after '{name}'",
                     atol=1e-9, rtol=1e-9)
    expect(len(res["outs"]) == len(outs), f"{what}: {len(res['outs'])} outputs came back for {len(outs)} batches")
    for i, (o, w) in enumerate(zip(res["outs"], outs)):
        expect_close(o, w, f"{what}: output for batch {i} (observers must not change the values)", atol=1e-12,
                     rtol=1e-10)


def test_model_without_parameters(student, gen):
    """a model without parameters or buffers (ReLU, MaxPool2d and Hardtanh modules) gets its observers too, and the
    result computes what the model computes"""
    model = P.PlainNet().double().eval()
    batches = [torch.randn(2 + i, 2, 6, 6, generator=gen, dtype=torch.float64) for i in range(2)]
    op_types = ["ReLU", "MaxPool2d"]
    types = tuple(getattr(nn, t) for t in op_types)
    with torch.no_grad():
        outs = [model(b) for b in batches]
    res = student.call("observers_plain", op_types=op_types, batches=batches)
    what = ("insert_observers(model, (nn.ReLU, nn.MaxPool2d)) for model.forward(x) = clip(act(pool(x) - 0.3)) + "
            "pool(-x) (act an nn.ReLU, pool an nn.MaxPool2d called twice, clip an nn.Hardtanh; no parameters), then "
            f"{len(batches)} batches through the result")
    expect(res["error"] is None, f"{what}: raised {res['error']} (the task: insert a fresh RangeObserver after every "
                                 f"call of a module of a type in op_types, for any model; a model may have no "
                                 f"parameters)")
    for i, (o, w) in enumerate(zip(res["outs"], outs)):
        expect_close(o, w, f"{what}: output for batch {i} (observers must not change the values)", atol=1e-12,
                     rtol=1e-10)
    # per call, in graph order: the judge's hooks see the calls in execution order, which is graph order
    seen = []
    hooks = [m.register_forward_hook(lambda m, i, o, name=name: seen.append((name, o.min().item(), o.max().item())))
             for name, m in model.named_modules() if name and isinstance(m, types)]
    with torch.no_grad():
        for b in batches:
            model(b)
    for h in hooks:
        h.remove()
    n_calls = len(seen) // len(batches)
    want = []
    for k in range(n_calls):
        per = [seen[j * n_calls + k] for j in range(len(batches))]
        want.append((per[0][0], min(p[1] for p in per), max(p[2] for p in per)))
    got = [(c["observed"], c["min"].item(), c["max"].item()) for c in res["calls"]]
    expect([g[0] for g in got] == [w[0] for w in want],
           f"{what}: observers after {[g[0] for g in got]}, expected after {[w[0] for w in want]} (one per call)")
    for (name, lo, hi), (_, glo, ghi) in zip(want, got):
        expect_close(torch.tensor([glo, ghi], dtype=torch.float64), torch.tensor([lo, hi], dtype=torch.float64),
                     f"{what}: [min, max] recorded by the observer after this call of '{name}'", atol=1e-9, rtol=1e-9)


def test_observer_names_leave_the_models_own_modules(student, gen):
    """a model that already uses, for submodules its forward calls, the very names the submission gives its observers
    (learnt from a first call): the observers get other names, the model's modules stay and the result computes what
    the model computes (gm.add_submodule silently replaces a submodule of the same name); the same with buffers
    under those names (add_submodule refuses an attribute name the module has)"""
    model, state, batches = _setup(gen, 1)
    x = batches[0]
    op_types = ["Conv2d", "Linear"]
    types = tuple(getattr(nn, t) for t in op_types)
    res = student.call("observers_names_taken", state=state, op_types=op_types, x=x)
    names = res["names"]
    taken = P.build_obstaken(names, state)
    with torch.no_grad():
        want = taken(x)
    ranges, _ = _hook_ranges(taken, types, [x])
    what = (f"insert_observers(model, (nn.Conv2d, nn.Linear)) for a model that holds its own nn.Tanh modules under "
            f"the names {names} (those your observers got on the same model without them) and calls each in forward "
            f"(out = 2 * tanh(out), in turn)")
    expect(not isinstance(res["out"], str), f"{what}: the result did not return a tensor: {res['out']}")
    expect(not res["lint"]["raised"], f"{what}: the resulting graph does not lint: {res['lint']['message'][:200]}")
    expect_close(res["orig"], want, f"{what}: the ORIGINAL model's output afterwards (do not change model)",
                 atol=1e-12, rtol=1e-10)
    expect_close(res["out"], want, f"{what}: the result's output vs model(x); the task: the result must \"compute "
                 f"exactly what `model` computes\" (an observer registered under a name the model already uses "
                 f"replaces the model's own module: pick a name the traced module does not have yet)",
                 atol=1e-12, rtol=1e-10)
    got = sorted(c["observed"] for c in res["calls"])
    expect(got == sorted(ranges), f"{what}: observers after {got}, expected one after each of {sorted(ranges)}")
    for c in res["calls"]:
        lo, hi = ranges[c["observed"]]
        expect_close(torch.stack([c["min"].reshape(()), c["max"].reshape(())]),
                     torch.tensor([lo, hi], dtype=torch.float64),
                     f"{what}: [min, max] recorded by the observer after '{c['observed']}'", atol=1e-9, rtol=1e-9)
    # held-out round 29: the same names taken by buffers that forward reads (attributes of the traced module, not
    # submodules): add_submodule cannot register a module under an attribute name the module already has
    taken = P.build_obstaken(names, state, "buffers")
    with torch.no_grad():
        want = taken(x)
    ranges, _ = _hook_ranges(taken, types, [x])
    what = (f"insert_observers(model, (nn.Conv2d, nn.Linear)) for a model that holds buffers (not submodules) under "
            f"the names {names} (those your observers got on the same model without them) and multiplies its output "
            f"by each in forward")
    buf = res["buffers"]
    expect(buf["error"] is None, f"{what}: raised {buf['error'] and buf['error']['type']}: "
                                 f"{buf['error'] and buf['error']['message'][:200]} (the task: \"Any model will do\" "
                                 f"and \"pick names the traced module does not have yet\": the traced module holds "
                                 f"those buffers as attributes, so an observer cannot take their names; test with "
                                 f"hasattr, not only among the submodules)")
    expect(not isinstance(buf["out"], str), f"{what}: the result did not return a tensor: {buf['out']}")
    expect_close(buf["out"], want, f"{what}: the result's output vs model(x)", atol=1e-12, rtol=1e-10)
    got = sorted(c["observed"] for c in buf["calls"])
    expect(got == sorted(ranges), f"{what}: observers after {got}, expected one after each of {sorted(ranges)}")
