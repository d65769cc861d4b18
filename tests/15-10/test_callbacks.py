"""Hidden checks for EarlyStopping and EMACallback (15-10, judge side)."""
import copy

import pytest
import torch
import torch.nn as nn
from hypothesis import given, settings, strategies as st
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from course.checks import expect, expect_close

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


@pytest.mark.parametrize("decay", [0.9, 0.5])
def test_ema_matches_averaged_model(student, gen, decay):
    """EMACallback matches AveragedModel(get_ema_multi_avg_fn(decay)), once per optimizer step"""
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
    r = student.call("ema_updates", init=init, updates=updates, decay=decay)

    ref_net = make_net()
    ref_net.load_state_dict(init)
    avg = AveragedModel(ref_net, multi_avg_fn=get_ema_multi_avg_fn(decay))
    for advance, values in updates:
        with torch.no_grad():
            for p, v in zip(ref_net.parameters(), values):
                p.copy_(v)
        if advance:
            avg.update_parameters(ref_net)
    want = list(avg.module.parameters())
    what = (f"EMACallback(decay={decay}) after 5 optimizer steps (batches 2 and 3 had none, and the weights "
            f"changed again after the last step), copy_to(model)")
    expect(len(r["ema"]) == len(want), f"{what}: wrong number of parameters")
    for i, (g, w) in enumerate(zip(r["ema"], want)):
        expect_close(g, w.detach(), f"{what}: averaged parameter {i}", atol=1e-10, rtol=1e-8)
    expect(not r["graph"], f"{what}: the averaged weights carry an autograd graph (update under torch.no_grad())")
