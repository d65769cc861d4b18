"""Hidden checks for EarlyStopping and EMACallback (15-10, judge side)."""
import copy

import pytest
import torch
import torch.nn as nn
from hypothesis import given, settings, strategies as st
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from course.judge.expect import expect, expect_close

pytestmark = pytest.mark.task("callbacks")


def reference_stop(values, patience, min_delta, mode):
    best, wait = None, 0
    for i, v in enumerate(values):
        better = best is None or (v < best - min_delta if mode == "min" else v > best + min_delta)
        if better:
            best, wait = v, 0
        else:
            wait += 1
            if wait >= patience:
                return i
    return None


def judge_stop(student, values, patience, min_delta, mode, why=""):
    r = student.call("early_stopping", values=values, patience=patience, min_delta=min_delta, mode=mode)
    want = reference_stop(values, patience, min_delta, mode)
    what = (f"EarlyStopping(patience={patience}, min_delta={min_delta}, mode='{mode}') fed the values {values}"
            + (f" ({why})" if why else ""))
    if want is None:
        expect(r["stop_at"] is None, f"{what}: should never set trainer.should_stop, but it did after value "
                                     f"#{r['stop_at']} (counting from 0)")
    else:
        expect(r["stop_at"] == want, f"{what}: should set trainer.should_stop after value #{want} (counting from 0), "
                                     f"got {'never' if r['stop_at'] is None else '#' + str(r['stop_at'])}")


def improving(gen, mode, step):
    """0 to 4 values that each improve on the last by `step` (a multiple of 1/8: exact), drawn per student,
    so that where the run stops differs from student to student; and the best of them."""
    m = int(torch.randint(0, 5, (1,), generator=gen))
    sign = -1 if mode == "min" else 1
    vals = [8.0 + sign * step * k for k in range(m)]
    return vals, (vals[-1] + sign * step if vals else 8.0)


@pytest.mark.parametrize("mode", ["min", "max"])
def test_early_stopping_tie_is_no_improvement(student, gen, mode):
    """an improvement must be STRICTLY better: a value equal to the best is not one"""
    head, best = improving(gen, mode, 0.5)
    judge_stop(student, head + [best, best, best], 2, 0.0, mode, "ties with the best value count as no improvement")


def test_early_stopping_min_delta_min_mode(student, gen):
    """mode 'min': an improvement must beat best - min_delta (strictly)"""
    head, best = improving(gen, "min", 0.5)
    judge_stop(student, head + [best, best - 0.125, best - 0.25, best - 0.5], 2, 0.25, "min",
               f"{best - 0.125} and {best - 0.25} are not below best - min_delta = {best - 0.25}")


def test_early_stopping_min_delta_max_mode(student, gen):
    """mode 'max': an improvement must beat best + min_delta (strictly)"""
    head, best = improving(gen, "max", 0.5)
    judge_stop(student, head + [best, best + 0.125, best + 0.25, best + 0.5], 2, 0.25, "max",
               f"{best + 0.125} and {best + 0.25} are not above best + min_delta = {best + 0.25}")


@pytest.mark.parametrize("mode", ["min", "max"])
def test_early_stopping_first_value_counts(student, gen, mode):
    """the first value always counts as an improvement, whatever its sign or size (mode 'max': zero, negative or
    -inf; mode 'min': huge or +inf: no starting value, infinite ones included, stands in for "no best yet")"""
    k = int(torch.randint(0, 17, (1,), generator=gen))
    first = -k / 8 if mode == "max" else 2.0 ** (20 + 4 * k)  # exact; no "safe" starting value can beat it
    patience = int(torch.randint(1, 4, (1,), generator=gen))
    min_delta = [0.0, 0.25][int(torch.randint(0, 2, (1,), generator=gen))]
    for value in (first, float("-inf") if mode == "max" else float("inf")):
        judge_stop(student, [value] * (patience + 1), patience, min_delta, mode,
                   f"the first value {value} is an improvement (the best so far), the {patience} ties after it are "
                   f"not")


def test_early_stopping_counter_resets(student, gen):
    """the counter of validations without improvement resets to 0 on an improvement"""
    k = int(torch.randint(2, 6, (1,), generator=gen))  # how many times a worse value is followed by a better one
    values = [1.0] + [v for j in range(k) for v in (1.5, 2.0 ** -(j + 1))] + [1.5, 1.5, 1.5]
    judge_stop(student, values, 2, 0.0, "min",
               "every second value improves, so the counter never reaches 2 until the end")


def test_early_stopping_nan_is_no_improvement(student, gen):
    """a nan value (a diverged run) is not strictly better than the best: it counts as no improvement"""
    mode = ["min", "max"][int(torch.randint(0, 2, (1,), generator=gen))]
    patience = int(torch.randint(1, 4, (1,), generator=gen))
    head, best = improving(gen, mode, 0.5)
    worse = best + (0.5 if mode == "min" else -0.5)
    judge_stop(student, head + [best, float("nan")] + [worse] * patience, patience, 0.0, mode,
               "nan is not better than any value: it adds one to the counter, and so does each worse value after it")


def test_early_stopping_at_or_past_patience(student, gen):
    """the counter reaching patience sets should_stop at every validation without improvement from then on (a
    resumed run, whose should_stop is not in the checkpoint, still stops)"""
    mode = ["min", "max"][int(torch.randint(0, 2, (1,), generator=gen))]
    patience = int(torch.randint(1, 4, (1,), generator=gen))
    head, best = improving(gen, mode, 0.5)
    values = head + [best] + [best] * (patience + 2)
    r = student.call("early_stopping", values=values, patience=patience, min_delta=0.0, mode=mode, reset_stop=True)
    want = list(range(len(head) + patience, len(values)))
    expect(r["stops"] == want, f"EarlyStopping(patience={patience}, mode='{mode}') fed {values}, with "
                               f"trainer.should_stop put back to False after each validation (as in a run resumed "
                               f"from a checkpoint): should_stop should be set after values {want} (counting from 0: "
                               f"every validation where the counter is at or past patience), got {r['stops']}")


@pytest.mark.parametrize("mode", ["min", "max"])
def test_early_stopping_improved_changes_nothing(student, gen, mode):
    """improved(value) only answers the question: asking it (twice, before or between validations) changes neither
    best nor the counter; on_validation_end records the new best"""
    first = int(torch.randint(1, 9, (1,), generator=gen)) / 4
    sign = -1 if mode == "min" else 1
    better, worse = first + sign * 0.5, first - sign * 0.5
    r = student.call("early_stopping_improved", mode=mode, first=first, better=better, worse=worse)
    what = f"EarlyStopping(patience=5, mode='{mode}')"
    expect(r["fresh"] == [True, True] and r["fresh_state"] == [None, 0],
           f"{what}, fresh: improved({first}) asked twice should answer [True, True] and leave (best, wait) at "
           f"[None, 0]; got {r['fresh']} and {r['fresh_state']}")
    expect(r["after_first"] == [first, 0], f"{what}: improved({first}) asked twice, then on_validation_end with "
                                           f"{first}: (best, wait) should be [{first}, 0], got {r['after_first']}")
    expect(r["asked"] == [True, True, False] and r["asked_state"] == [first, 0],
           f"{what}, best {first}: improved({better}) twice and improved({worse}) should answer [True, True, False] "
           f"and leave (best, wait) at [{first}, 0]; got {r['asked']} and {r['asked_state']}")


def reference_flags(values, patience, min_delta, mode):
    """Per validation, whether EarlyStopping's own rule sets should_stop there (counter at or past patience)."""
    best, wait, out = None, 0, []
    for v in values:
        if best is None or (v < best - min_delta if mode == "min" else v > best + min_delta):
            best, wait = v, 0
        else:
            wait += 1
        out.append(wait >= patience)
    return out


def test_early_stopping_never_clears_should_stop(student, gen):
    """EarlyStopping only ever SETS trainer.should_stop: a stop another callback requested (True before this one
    runs) stays True, also at a validation that improves"""
    mode = ["min", "max"][int(torch.randint(0, 2, (1,), generator=gen))]
    patience = int(torch.randint(1, 4, (1,), generator=gen))
    head, best = improving(gen, mode, 0.5)
    better = best + (-0.5 if mode == "min" else 0.5)
    values = head + [best] + [best] * patience + [better, better]
    preset = [bool(b) for b in (torch.rand(len(values), generator=gen) < 0.5)]
    preset[0] = preset[len(head)] = preset[-2] = True  # improvements: a wrong callback clears the stop there
    preset[-1] = False
    r = student.call("early_stopping", values=values, patience=patience, min_delta=0.0, mode=mode, preset=preset)
    after = r.get("after") if isinstance(r, dict) else None
    expect(isinstance(after, list) and len(after) == len(values),
           f"EarlyStopping fed {len(values)} values: the probe recorded {len(after) if isinstance(after, list) else 0} "
           f"validations")
    want = [p or s for p, s in zip(preset, reference_flags(values, patience, 0.0, mode))]
    for i, (g, w) in enumerate(zip(after, want)):
        expect(g == w, f"EarlyStopping(patience={patience}, mode='{mode}') fed {values}; before each validation "
                       f"trainer.should_stop was {preset} (True: another callback asked to stop): after value #{i} "
                       f"({values[i]}) should_stop should be {w}, got {g}"
                       + (" (the callback sets should_stop = True when its counter reaches patience; it never sets "
                          "it back to False)" if preset[i] and not g else ""))


@settings(max_examples=15, deadline=None)
@given(values=st.lists(st.integers(0, 8).map(lambda k: k / 8), min_size=1, max_size=10),
       patience=st.integers(1, 3), min_delta=st.sampled_from([0.0, 0.2]), mode=st.sampled_from(["min", "max"]))
def test_early_stopping_matches_rule(student, values, patience, min_delta, mode):
    """EarlyStopping stops at the validation where `patience` checks in a row brought no improvement"""
    r = student.call("early_stopping", values=values, patience=patience, min_delta=min_delta, mode=mode)
    want = reference_stop(values, patience, min_delta, mode)
    what = (f"EarlyStopping(patience={patience}, min_delta={min_delta}, mode='{mode}') fed the values {values}")
    if want is None:
        expect(r["stop_at"] is None, f"{what}: should never set trainer.should_stop, but it did after value "
                                     f"#{r['stop_at']} (counting from 0)")
    else:
        expect(r["stop_at"] == want, f"{what}: should set trainer.should_stop after value #{want} (counting from 0), "
                                     f"got {'never' if r['stop_at'] is None else '#' + str(r['stop_at'])}")


def make_net():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double()


@pytest.mark.parametrize("decay,late", [(0.9, False), (0.5, True)], ids=["0.9", "0.5"])
def test_ema_matches_averaged_model(student, gen, decay, late):
    """EMACallback matches AveragedModel(get_ema_multi_avg_fn(decay)), once per optimizer step (also when it starts
    on a trainer that has already taken steps)"""
    start = int(torch.randint(1, 40, (1,), generator=gen)) if late else 0
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    net = make_net()
    init = {k: v.clone() for k, v in net.state_dict().items()}
    shapes = [p.shape for p in net.parameters()]
    updates = []
    for i in range(7):
        advance = i not in (2, 3)  # two extra batches without an optimizer step (accumulation)
        updates.append([advance, [torch.randn(s, generator=gen, dtype=torch.float64) for s in shapes]])
    # and at the end the live weights change once more without a step: the EMA must not follow
    updates.append([False, [torch.randn(s, generator=gen, dtype=torch.float64) for s in shapes]])
    r = student.call("ema_updates", init=init, updates=updates, decay=decay, start_step=start)

    ref_net = make_net()
    ref_net.load_state_dict(init)
    _expect_ema(r, _ema_reference(ref_net, updates, decay),
                f"EMACallback(decay={decay}) after 5 optimizer steps (batches 2 and 3 had none, and the weights "
                f"changed again after the last step), copy_to(model)"
                + (f"; the callback started on a trainer already at global_step {start} (only a step taken since "
                   f"its last update counts, whatever num_updates says)" if start else ""))
    expect(r["num_updates"] == 5, f"EMACallback(decay={decay}) started at global_step {start}, after 5 optimizer "
                                  f"steps: num_updates should be 5, got {r['num_updates']}")


def _ema_reference(net, updates, decay) -> list:
    """torch's own EMA (AveragedModel) of ``net`` over ``updates`` ([step taken, new values] each)."""
    avg = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(decay))
    for advance, values in updates:
        with torch.no_grad():
            for p, v in zip(net.parameters(), values):
                p.copy_(v)
        if advance:
            avg.update_parameters(net)
    return [p.detach() for p in avg.module.parameters()]


def _expect_ema(r, want, what, frozen=None) -> None:
    expect(len(r["ema"]) == len(want), f"{what}: wrong number of parameters")
    for i, (g, w) in enumerate(zip(r["ema"], want)):
        expect_close(g, w, f"{what}: averaged parameter {i}" + (" (the frozen one: its average is its value)"
                                                                if i == frozen else ""), atol=1e-10, rtol=1e-8)
    expect(not r["graph"], f"{what}: the averaged weights carry an autograd graph (update under torch.no_grad())")


def test_ema_averages_parameters_only(student, gen):
    """with BatchNorm in the model, only the parameters are averaged: copy_to leaves the module's buffers alone"""
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    mid = nn.BatchNorm1d(4).double()
    net = nn.Sequential(nn.Linear(3, 4), mid, nn.Tanh(), nn.Linear(4, 2)).double()
    init = {k: v.clone() for k, v in net.state_dict().items()}
    shapes = [p.shape for p in net.parameters()]
    updates = [[i != 1, [torch.randn(s, generator=gen, dtype=torch.float64) for s in shapes]] for i in range(4)]
    r = student.call("ema_updates", init=init, updates=updates, decay=0.7, batchnorm=True)
    avg = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.7))  # use_buffers=False: parameters only
    for i, (advance, values) in enumerate(updates):
        with torch.no_grad():
            for p, v in zip(net.parameters(), values):
                p.copy_(v)
            for b in net.buffers():
                b.add_(1 + i)  # the probe moves the live statistics at every batch
        if advance:
            avg.update_parameters(net)
    what = ("EMACallback(decay=0.7) on Linear-BatchNorm1d-Tanh-Linear after 3 optimizer steps (the BatchNorm "
            "statistics change at every batch), then copy_to(a fresh model)")
    want = list(avg.module.parameters())
    expect(len(r["ema"]) == len(want), f"{what}: wrong number of parameters")
    for i, (g, w) in enumerate(zip(r["ema"], want)):
        expect_close(g, w.detach(), f"{what}: averaged parameter {i}", atol=1e-10, rtol=1e-8)
    fresh = [b for b in nn.BatchNorm1d(4).double().buffers()]
    expect(len(r["target_buffers"]) == len(fresh), f"{what}: the probe read back {len(r['target_buffers'])} of the "
                                                    f"fresh model's {len(fresh)} BatchNorm buffers")
    for name, g, w in zip(("running_mean", "running_var", "num_batches_tracked"), r["target_buffers"], fresh):
        expect(torch.equal(g, w), f"{what}: the fresh model's BatchNorm {name} changed to {g.tolist()}; only "
                                  f"parameters are averaged and copied, buffers are left as they are")


def ema_run(student, gen, decay=0.9):
    """3 to 6 batches, each with an optimizer step or not (drawn per student, at least one step); the reply,
    the number of steps and the judge's own average after them."""
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    net = make_net()
    init = {k: v.clone() for k, v in net.state_dict().items()}
    shapes = [p.shape for p in net.parameters()]
    flags = [bool(f) for f in torch.rand(int(torch.randint(3, 7, (1,), generator=gen)), generator=gen) < 0.7]
    flags[int(torch.randint(0, len(flags), (1,), generator=gen))] = True
    updates = [[f, [torch.randn(s, generator=gen, dtype=torch.float64) for s in shapes]] for f in flags]
    r = student.call("ema_updates", init=init, updates=updates, decay=decay)
    ref = make_net()
    ref.load_state_dict(init)
    avg = AveragedModel(ref, multi_avg_fn=get_ema_multi_avg_fn(decay))
    for advance, values in updates:
        with torch.no_grad():
            for p, v in zip(ref.parameters(), values):
                p.copy_(v)
        if advance:
            avg.update_parameters(ref)
    return r, sum(flags), [p.detach() for p in avg.module.parameters()]


@pytest.mark.task("callbacks", weight=0.1)  # its right answer is a constant (no graph): worth little
def test_ema_shadow_outside_autograd(student, gen):
    """the shadow copies are detached: no tensor in EMACallback.shadow requires grad"""
    r, _, _ = ema_run(student, gen)
    expect(not r["shadow_graph"], "EMACallback(decay=0.9) after 3 optimizer steps of a model whose parameters "
                                  "require grad: EMACallback.shadow holds tensors that require grad (a graph grows "
                                  "through them); update them under torch.no_grad() from detached weights")


def test_ema_copy_to_copies(student, gen):
    """copy_to writes the average INTO the module's parameters (in place: a tensor sharing a parameter's storage sees
    it); changing that module later leaves the EMA alone"""
    r, _, want = ema_run(student, gen)
    moved = [i for i, ok in enumerate(r.get("in_place") or []) if not ok]
    expect(r.get("in_place") is not None and not moved,
           f"EMACallback.copy_to(model_a): parameters {moved} of model_a got new storage instead of the averaged "
           f"values written into them (a tensor that shared their storage, as an optimizer's state or a tied "
           f"module does, kept the old weights; p.data = ... also changes a parameter's dtype or device to the "
           f"shadow's): copy into each parameter in place (p.copy_(s)), as 'copies the averaged weights into a "
           f"module's parameters (in place)' asks")
    expect(len(r["ema"]) == len(want) and len(r["ema_again"]) == len(want),
           f"EMACallback.copy_to on a model of {len(want)} parameters: the probe read back {len(r['ema'])} and "
           f"{len(r['ema_again'])}")
    for i, (g, w) in enumerate(zip(r["ema"], want)):
        expect_close(g, w, f"EMACallback.copy_to(model_a): averaged parameter {i} it wrote", atol=1e-10, rtol=1e-8)
    for i, (a, b) in enumerate(zip(r["ema_again"], r["ema"])):
        expect(torch.equal(a, b), f"EMACallback.copy_to(model_a), then model_a's parameters += 1, then "
                                  f"copy_to(model_b): parameter {i} of model_b differs from what model_a received; "
                                  f"copy the values (p.copy_(s)) instead of sharing storage")


def test_ema_counts_updates(student, gen):
    """num_updates counts the updates (one per optimizer step)"""
    r, steps, _ = ema_run(student, gen)
    expect(r["num_updates"] == steps, f"EMACallback after batches of which {steps} had an optimizer step: "
                                      f"num_updates should be {steps}, got {r['num_updates']}")


@pytest.mark.task("callbacks", weight=0.1)  # its right answer is a constant (unchanged): worth little
def test_ema_copy_to_before_any_update(student, gen):
    """copy_to before the first update leaves the module unchanged"""
    r, _, _ = ema_run(student, gen)
    expect(not r["early_error"]["raised"] and r["early_same"],
           "EMACallback(decay=0.9).copy_to(model) before any update: expected no error and unchanged parameters, "
           + (f"got {r['early_error']['type']}: {r['early_error']['message'][:200]}" if r["early_error"]["raised"]
              else "the parameters changed"))


def test_ema_frozen_parameter(student, gen):
    """a frozen parameter (requires_grad=False) is one of module.parameters(): it is averaged, and copy_to writes it
    into the target module too"""
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    net = make_net()
    frozen = int(torch.randint(0, 4, (1,), generator=gen))
    for i, p in enumerate(net.parameters()):
        p.requires_grad_(i != frozen)
    init = {k: v.clone() for k, v in net.state_dict().items()}
    start = [p.detach().clone() for p in net.parameters()]
    updates = [[i != 1, [start[j] if j == frozen else torch.randn(p.shape, generator=gen, dtype=torch.float64)
                         for j, p in enumerate(net.parameters())]] for i in range(4)]
    r = student.call("ema_updates", init=init, updates=updates, decay=0.8, frozen=[frozen])
    name = [k for k, _ in net.named_parameters()][frozen]
    _expect_ema(r, _ema_reference(net, updates, 0.8),
                f"EMACallback(decay=0.8) on Linear-Tanh-Linear whose parameter '{name}' is frozen (requires_grad=False, "
                f"in the model and in the module copy_to writes into), after 3 optimizer steps, copy_to(a fresh model)",
                frozen=frozen)


def test_ema_on_the_model_device(student):
    """a model on another device than the default one (a GPU; here a stand-in): the first update copies the weights
    where they are, so the later blends (ema <- decay*ema + (1-decay)*w, in place) and copy_to run on that device"""
    r = student.call("ema_off_device", steps=3, decay=0.5)
    what = ("EMACallback(decay=0.5) on a Linear-Tanh-Linear model sitting on a device other than the default one, "
            "3 optimizer steps, then copy_to(a second model on that device)")
    if "inconclusive" in r:  # the code reads values on either stand-in (as it may on a GPU): nothing to judge here
        return
    expect("error" not in r, f"{what}: raised {r.get('error')} (a shadow made without device= sits on the default "
                             f"device, and blending it with the weights fails as on a GPU: copy the weights with "
                             f"w.clone() or make the shadow with device=w.device)")
    expect(len(r["shadow_devices"]) == 4, f"{what}: EMACallback.shadow should hold one tensor per parameter (4), got "
                                          f"{r['shadow_devices']}")
    wrong = [i for i, d in enumerate(r["shadow_devices"]) if d != "meta"]
    expect(not wrong, f"{what}: the shadow copies of parameters {wrong} are on {[r['shadow_devices'][i] for i in wrong]}"
                      f", not on the model's device (a tensor made without device= lands on the default device; on a "
                      f"GPU the next blend with the weights then raises): the first update copies the weights where "
                      f"they are (w.clone())")
    err = r["copy_to_error"]
    if err["raised"] and err["needs_values"]:  # copy_to reads values (as it may on a GPU): nothing more to judge
        return
    expect(not err["raised"], f"{what}: copy_to raised {err.get('type')}: {str(err.get('message'))[:200]}")
    expect(all(d == "meta" for d in r["target_devices"]),
           f"{what}: copy_to moved the target's parameters to {r['target_devices']}; copy into them in place")

