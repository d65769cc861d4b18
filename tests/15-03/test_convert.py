"""Hidden checks for convert_checkpoint: state_dict surgery (task 'convert')."""
import runpy
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("convert")
P = runpy.run_path(str(Path(__file__).with_name("probes.py")))
f64 = torch.float64


def make_old(c1, c2, hidden, nc, seed, dtype=f64):
    """A random OldNet with non-trivial BatchNorm statistics, in eval mode."""
    torch.manual_seed(seed)
    old = P["OldNet"](c1, c2, hidden, nc).to(dtype)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for mod in old.modules():
            if isinstance(mod, torch.nn.BatchNorm2d):
                mod.weight.copy_(1 + 0.3 * torch.randn(mod.weight.shape, generator=g))
                mod.bias.copy_(0.3 * torch.randn(mod.bias.shape, generator=g))
                mod.running_mean.copy_(0.5 * torch.randn(mod.running_mean.shape, generator=g))
                mod.running_var.copy_(0.5 + torch.rand(mod.running_var.shape, generator=g))
                mod.num_batches_tracked.fill_(int(torch.randint(1, 5000, (1,), generator=g)))
    return old.eval()


def convert_and_load(student, sizes, seed, dtype=f64):
    old = make_old(*sizes, seed, dtype)
    sd = old.state_dict()
    what = f"convert_checkpoint(OldNet{sizes}.state_dict())"
    r = student.call("convert_run", old_state={k: v.clone() for k, v in sd.items()})
    new_sd = r["new"]
    bad = [k for k, v in new_sd.items() if not isinstance(v, torch.Tensor)]
    if bad:
        fail(f"{what}: values must be tensors, got {new_sd[bad[0]]!r} for '{bad[0]}'")
    new = P["NewNet"](*sizes).to(dtype)
    want = new.state_dict()
    missing, extra = sorted(set(want) - set(new_sd)), sorted(set(new_sd) - set(want))
    if missing or extra:
        hint = " (BatchNorm buffers running_mean/running_var/num_batches_tracked count too)" if any(
            "running" in k or "num_batches" in k for k in missing) else ""
        fail(f"{what}: NewNet.load_state_dict(result, strict=True) would fail: missing keys {missing[:6]}, "
             f"unexpected keys {extra[:6]}{hint}")
    for k, v in want.items():
        if tuple(new_sd[k].shape) != tuple(v.shape):
            hint = (" (classifier.1 becomes the 7x7 conv fc and classifier.4 the 1x1 conv out, whatever their sizes: "
                    "tell them apart by their names, not by whether a size is a multiple of 49)"
                    if k in ("fc.weight", "out.weight") else "")
            fail(f"{what}: '{k}' has shape {tuple(new_sd[k].shape)}, NewNet{sizes} needs {tuple(v.shape)}{hint}")
        if new_sd[k].dtype != v.dtype:
            fail(f"{what}: '{k}' came back as {new_sd[k].dtype}, the checkpoint's tensor is {v.dtype}; keep the "
                 f"checkpoint's dtypes")
    try:
        new.load_state_dict(new_sd, strict=True)
    except Exception as exc:  # noqa: BLE001 - reported to the student
        fail(f"{what}: NewNet.load_state_dict(result, strict=True) raised {type(exc).__name__}: {str(exc)[:200]}")
    return old, sd, new.eval(), r, what


# (2, 3, 49, 5): hidden a multiple of 7 * 7, so out.weight (5, 49) has the second size of a flattened 7x7 map; a
# conversion that tells the two classifier Linears apart by that size (not by their names) makes it a 7x7 conv
@pytest.mark.parametrize("sizes", [(8, 16, 64, 10), (3, 5, 7, 4), (1, 1, 1, 1), (2, 3, 49, 5)], ids=str)
def test_strict_load_succeeds(student, sizes, gen):
    """The converted dict loads into NewNet with strict=True (renamed, aux head dropped, reshaped)"""
    old, _, new, _, what = convert_and_load(student, sizes, int(torch.randint(0, 10**6, (1,), generator=gen)))
    x = torch.rand(2, 1, 28, 28, generator=gen, dtype=f64)
    with torch.no_grad():  # the loaded weights are the checkpoint's: the same predictions
        expect_close(new(x), old(x), f"{what}: NewNet(x) vs OldNet(x)", atol=1e-10, rtol=1e-8)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.generate], database=None)
@given(c1=st.integers(1, 6), c2=st.integers(1, 6), hidden=st.integers(1, 12), nc=st.integers(1, 5),
       seed=st.integers(0, 10**6), batch=st.integers(1, 3))
def test_converted_model_computes_the_same(student, c1, c2, hidden, nc, seed, batch):
    """NewNet with the converted weights computes exactly OldNet's outputs in eval mode (any sizes)"""
    old, _, new, _, what = convert_and_load(student, (c1, c2, hidden, nc), seed)
    x = torch.rand(batch, 1, 28, 28, generator=torch.Generator().manual_seed(seed), dtype=f64)
    with torch.no_grad():
        expect_close(new(x), old(x), f"{what}: NewNet(x) vs OldNet(x) for x of shape {tuple(x.shape)}",
                     atol=1e-10, rtol=1e-8)


def test_batchnorm_buffers_carried_over(student, gen):
    """BatchNorm running_mean, running_var and num_batches_tracked arrive unchanged"""
    old, sd, new, _, what = convert_and_load(student, (4, 6, 8, 3), int(torch.randint(0, 10**6, (1,), generator=gen)))
    for old_bn, new_bn in [("features.1", "block1.bn"), ("features.5", "block2.bn")]:
        for buf in ("running_mean", "running_var", "num_batches_tracked"):
            expect_equal(new.state_dict()[f"{new_bn}.{buf}"], sd[f"{old_bn}.{buf}"],
                         f"{what}: '{new_bn}.{buf}' (from '{old_bn}.{buf}')")


def test_float32_default_checkpoint(student, gen):
    """A float32 checkpoint of the default OldNet() converts with dtypes kept and the same predictions"""
    old, _, new, r, what = convert_and_load(student, (8, 16, 64, 10),
                                            int(torch.randint(0, 10**6, (1,), generator=gen)), dtype=torch.float32)
    new_state = P["NewNet"]().state_dict()
    for k, v in r["new"].items():
        expect(v.dtype == new_state[k].dtype,
               f"{what}: '{k}' came back as {v.dtype}, expected {new_state[k].dtype}; keep the checkpoint's dtypes")
    x = torch.rand(4, 1, 28, 28, generator=gen)
    with torch.no_grad():
        expect_close(new(x), old(x), f"{what}: NewNet(x) vs OldNet(x)", atol=1e-5, rtol=1e-4)


def test_input_checkpoint_left_unchanged(student, gen):
    """convert_checkpoint returns a new dict and leaves the old one (keys and values) as it was"""
    old = make_old(3, 4, 5, 2, int(torch.randint(0, 10**6, (1,), generator=gen)))
    sd = old.state_dict()
    # then a second checkpoint (other sizes) converted right after: the first result is a dict of its own
    other = make_old(2, 3, 4, 5, int(torch.randint(0, 10**6, (1,), generator=gen))).state_dict()
    r = student.call("convert_run", old_state={k: v.clone() for k, v in sd.items()},
                     second_state={k: v.clone() for k, v in other.items()})
    what = "convert_checkpoint(old_state)"
    second = r["second"]
    expect(not second["same_object"],
           f"convert_checkpoint(OldNet(3, 4, 5, 2).state_dict()), then convert_checkpoint(OldNet(2, 3, 4, 5)"
           f".state_dict()): both calls returned the same dict object; the clause 'returns a **new** dict' (a dict "
           f"kept between calls, e.g. a mutable default argument, is overwritten by the next conversion)")
    expect(not second["first_changed"],
           f"convert_checkpoint(OldNet(3, 4, 5, 2).state_dict()), then convert_checkpoint(OldNet(2, 3, 4, 5)"
           f".state_dict()): the second call changed the first result's entries {second['first_changed'][:6]}; "
           f"the clause 'returns a **new** dict': each call builds its own")
    expect(list(r["old_after"].keys()) == list(sd.keys()),
           f"{what} changed the keys of old_state: it now has {list(r['old_after'].keys())[:6]}...; "
           f"build a new dict instead")
    for k, v in sd.items():
        expect_equal(r["old_after"][k], v, f"{what}: old_state['{k}'] after the call")
