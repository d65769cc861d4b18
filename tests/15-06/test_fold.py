"""Hidden checks for fold_conv_bn (exercise 2): compared with torch.nn.utils.fusion.fuse_conv_bn_eval."""
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
from hypothesis import given, strategies as st
from torch.nn.utils.fusion import fuse_conv_bn_eval

from course.judge.expect import expect, expect_close, expect_equal

pytestmark = pytest.mark.task("fold_conv_bn")


def _pair(cfg, gen, eps=1e-5):
    conv = nn.Conv2d(**cfg).double()
    bn = nn.BatchNorm2d(cfg["out_channels"], eps=eps).double()
    cs = J.randomize(conv, gen)
    bs = J.randomize(bn, gen)
    conv.eval()
    bn.eval()
    return conv, bn, cs, bs


def _describe(cfg, eps):
    return (f"fold_conv_bn(Conv2d({cfg['in_channels']}, {cfg['out_channels']}, kernel_size={cfg['kernel_size']}, "
            f"stride={cfg['stride']}, padding={cfg['padding']}, dilation={cfg['dilation']}, groups={cfg['groups']}, "
            f"bias={cfg['bias']}), BatchNorm2d(eps={eps:g}) in eval mode)")


LAYOUTS = ["contiguous", "channels_last", "transposed", "strided", "offset"]


def _check_against_torch(student, cfg, gen, eps, layout="contiguous", **probe):
    """``layout``: how conv's weight is laid out in memory (probelib.relayout), e.g. channels_last as
    model.to(memory_format=torch.channels_last) leaves it: same values, so the same fold."""
    conv, bn, cs, bs = _pair(cfg, gen, eps)
    x = torch.randn(2, cfg["in_channels"], 9, 8, generator=gen, dtype=torch.float64)
    ref = fuse_conv_bn_eval(conv, bn)
    with torch.no_grad():
        want_out = bn(conv(x))
    res = student.call("fold", cfg=cfg, conv_state=cs, bn_state={**bs, "__eps__": eps}, x=x, layout=layout, **probe)
    res["x"] = x
    what = _describe(cfg, eps) + ("" if layout == "contiguous" else f", conv's weight laid out {layout}")
    expect(res["bias"] is not None, f"{what}: the folded conv has no bias; BatchNorm's shift "
                                    f"beta - gamma*mean/sqrt(var+eps) must go into a bias")
    expect_close(res["weight"], ref.weight.detach(), f"{what}: folded weight", atol=1e-10, rtol=1e-8)
    expect_close(res["bias"], ref.bias.detach(), f"{what}: folded bias", atol=1e-10, rtol=1e-8)
    expect_close(res["out"], want_out, f"{what}: folded_conv(x) vs bn(conv(x)) for x of shape {tuple(x.shape)}",
                 atol=1e-9, rtol=1e-7)
    frozen = sorted(k for k, v in res["requires_grad_after"].items() if not v)
    expect(not frozen, f"{what}: afterwards {frozen} no longer require grad (every parameter of the input conv and bn "
                       f"did before the call, so training them later would not update them): fold_conv_bn must not "
                       f"modify conv or bn; read their values with .detach() (a copy of the flag), not .detach_() or "
                       f"requires_grad_(False), which change the module itself")
    for label, after, before in (("conv", res["conv_after"], cs), ("bn", res["bn_after"], bs)):
        expect(set(after) == set(before), f"{what}: the input {label}'s state_dict keys changed from {sorted(before)} "
                                          f"to {sorted(after)} (it must not change)")
        for k, v in before.items():
            if v.is_floating_point():
                expect_close(after[k], v, f"{what}: the input {label}'s '{k}' afterwards (it must not change)",
                             atol=0, rtol=0)
    return res, conv, bn, cs, bs


@st.composite
def conv_cfgs(draw):
    groups = draw(st.sampled_from([1, 1, 2, 3]))
    cin = groups * draw(st.integers(1, 3))
    cout = groups * draw(st.integers(1, 3))
    k = draw(st.sampled_from([1, 2, 3, (1, 3), (3, 2)]))  # a pair: a rectangular kernel (also stride, padding, ...)
    return dict(in_channels=cin, out_channels=cout, kernel_size=k, stride=draw(st.sampled_from([1, 2, (2, 1)])),
                padding=draw(st.sampled_from([0, 1, 2, (1, 0), (0, 2)])),
                dilation=draw(st.sampled_from([1, 2, (1, 2)])), groups=groups, bias=draw(st.booleans()))


@J.hyp(15)
@given(cfg=conv_cfgs(), eps=st.sampled_from([1e-5, 1e-3, 0.1]), layout=st.sampled_from(LAYOUTS),
       seed=st.integers(0, 2**31 - 1))
def test_matches_fuse_conv_bn_eval(student, cfg, eps, layout, seed):
    """folded weight and bias equal torch.nn.utils.fusion.fuse_conv_bn_eval (groups, dilation, stride, bias, eps,
    weight memory layouts)"""
    _check_against_torch(student, cfg, torch.Generator().manual_seed(seed), eps, layout)


def test_conv_without_bias(student, gen):
    """a conv without bias gets a bias holding BatchNorm's shift (the conv in channels_last memory format, whose
    weight's last three dimensions no view can merge)"""
    cfg = dict(in_channels=4, out_channels=6, kernel_size=3, stride=1, padding=1, dilation=1, groups=2, bias=False)
    _check_against_torch(student, cfg, gen, 1e-5, "channels_last")


def test_inputs_unchanged_and_config_kept(student, gen):
    """fold_conv_bn returns a new conv with the same configuration (a rectangular kernel, stride, padding and
    dilation) and leaves conv and bn untouched; called again on the same two modules after their values changed in
    place, it folds the values they hold then"""
    cfg = dict(in_channels=3, out_channels=6, kernel_size=(3, 2), stride=(2, 1), padding=(2, 1), dilation=(2, 1),
               groups=3, bias=True)
    res, conv, bn, cs, bs = _check_against_torch(student, cfg, gen, 1e-4, refold=True)
    what = _describe(cfg, 1e-4)
    P.refold_in_place(conv, bn)  # held-out round 29: the judge's copy changed as the probe changes the student's
    with torch.no_grad():
        want_again = bn(conv(res["x"]))
    again = res["out_again"]
    expect(not isinstance(again, str), f"{what}, called a second time on the same conv and bn: returned {again}")
    expect_close(again, want_again, f"{what}, called a second time on the same conv and bn after, in place, "
                 f"conv.weight *= -0.5, bn.running_mean += 0.75, bn.running_var *= 3 and bn.weight negated: "
                 f"folded_conv(x) vs bn(conv(x)) with the values they hold now (the task: a new conv computing "
                 f"bn(conv(x)); a result kept from the first call folds the old values)", atol=1e-9, rtol=1e-7)
    expect(not res["same_object"], f"{what}: returned the conv that was passed in; return a new module")
    for k, v in cs.items():
        expect_close(res["conv_after"][k], v, f"{what}: the input conv's '{k}' afterwards (it must not change)",
                     atol=0, rtol=0)
    for k, v in bs.items():
        if v.is_floating_point():
            expect_close(res["bn_after"][k], v, f"{what}: the input bn's '{k}' afterwards (it must not change)",
                         atol=0, rtol=0)
    want = {"in_channels": 3, "out_channels": 6, "kernel_size": [3, 2], "stride": [2, 1], "padding": [2, 1],
            "dilation": [2, 1], "groups": 3}
    expect_equal(res["config"], want, f"{what}: configuration of the folded conv")


@pytest.mark.parametrize("padding_mode", ["reflect", "circular"])
def test_padding_mode_kept(student, gen, padding_mode):
    """the folded conv keeps conv's padding_mode, so it still computes bn(conv(x)) for reflect/circular padding"""
    cfg = dict(in_channels=2, out_channels=3, kernel_size=3, stride=1, padding=1, dilation=1, groups=1, bias=True,
               padding_mode=padding_mode)
    conv, bn, cs, bs = _pair(cfg, gen)
    x = torch.randn(2, 2, 6, 5, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want_out = bn(conv(x))
    res = student.call("fold", cfg=cfg, conv_state=cs, bn_state=bs, x=x)
    what = _describe(cfg, 1e-5)[:-1] + f", padding_mode='{padding_mode}')"
    expect(res["padding_mode"] == padding_mode,
           f"{what}: the folded conv has padding_mode={res['padding_mode']!r}, expected {padding_mode!r}")
    expect_close(res["out"], want_out, f"{what}: folded_conv(x) vs bn(conv(x)) for x of shape {tuple(x.shape)}",
                 atol=1e-9, rtol=1e-7)


def test_parameters_keep_dtype(student, gen):
    """the folded conv's weight and bias have the dtype of conv's weight (float64 here)"""
    cfg = dict(in_channels=2, out_channels=4, kernel_size=1, stride=1, padding=0, dilation=1, groups=1, bias=False)
    conv, bn, cs, bs = _pair(cfg, gen)
    x = torch.randn(1, 2, 3, 3, generator=gen, dtype=torch.float64)
    res = student.call("fold", cfg=cfg, conv_state=cs, bn_state=bs, x=x)
    what = _describe(cfg, 1e-5) + " with float64 conv and bn"
    expect(res["weight"].dtype == torch.float64, f"{what}: folded weight has dtype {res['weight'].dtype}, "
                                                 f"expected torch.float64 (the dtype of conv.weight)")
    expect_close(res["weight"], fuse_conv_bn_eval(conv, bn).weight.detach(), f"{what}: folded weight", atol=1e-10,
                 rtol=1e-8)
    expect(res["bias"] is not None and res["bias"].dtype == torch.float64,
           f"{what}: folded bias has dtype {None if res['bias'] is None else res['bias'].dtype}, expected "
           f"torch.float64")


@pytest.mark.parametrize("conv_dtype,bn_dtype", [("float32", "float64"), ("bfloat16", "float32")])
def test_parameters_keep_conv_dtype_not_bn(student, gen, conv_dtype, bn_dtype):
    """the folded conv's weight and bias have conv's dtype also when bn's is wider (float32 conv, float64 bn)"""
    cfg = dict(in_channels=2, out_channels=4, kernel_size=3, stride=1, padding=1, dilation=1, groups=1, bias=True)
    conv, bn, cs, bs = _pair(cfg, gen)
    conv, bn = conv.to(getattr(torch, conv_dtype)), bn.to(getattr(torch, bn_dtype))
    want = fuse_conv_bn_eval(conv, bn)
    res = student.call("fold_typed", cfg=cfg, conv_state=conv.state_dict(), bn_state=bn.state_dict(),
                       conv_dtype=conv_dtype, bn_dtype=bn_dtype)
    what = _describe(cfg, 1e-5) + f" with a {conv_dtype} conv and a {bn_dtype} bn"
    expect("error" not in res, f"{what} raised {res.get('error')}")
    tol = 1e-5 if conv_dtype == "float32" else 2e-2
    for name in ("weight", "bias"):
        got = res[name]
        expect(got is not None and got["dtype"] == f"torch.{conv_dtype}",
               f"{what}: the folded {name} has dtype {got and got['dtype']}, expected torch.{conv_dtype} (the dtype "
               f"of conv.weight, not the promoted dtype of conv's and bn's tensors: cast the result back)")
        expect_close(got["value"].double(), getattr(want, name).detach().double(), f"{what}: folded {name}",
                     atol=tol, rtol=tol)


@pytest.mark.parametrize("bn_dtype", ["float32", "float64"])
def test_float16_conv_with_statistics_beyond_float16(student, gen, bn_dtype):
    """a float16 conv after a wider BatchNorm whose running variance and mean exceed float16's range (65504; raw
    0-255 pixels give such statistics) or are 0: the fold is computed in the wider dtype and only the result is
    cast, as torch's fuse_conv_bn_eval does (casting the statistics first turns them into inf)"""
    cfg = dict(in_channels=3, out_channels=5, kernel_size=3, stride=1, padding=1, dilation=1, groups=1, bias=True)
    conv, bn, cs, bs = _pair(cfg, gen)
    big = torch.rand(5, generator=gen, dtype=torch.float64)
    with torch.no_grad():  # channel 0: var and mean beyond float16; 1: var beyond, mean large; 2: var 0; 3-4 drawn
        bn.running_var[:3] = torch.stack([7e4 + 9e4 * big[0], 7e4 + 3e4 * big[1], big[2] * 0])
        bn.running_mean[:2] = torch.stack([7e4 + 2e4 * big[3], -300 - 200 * big[4]])
        bn.weight[:3] = bn.weight[:3].abs() + 0.5
    conv, bn = conv.to(torch.float16), bn.to(getattr(torch, bn_dtype))
    want = fuse_conv_bn_eval(conv, bn)
    res = student.call("fold_typed", cfg=cfg, conv_state=conv.state_dict(), bn_state=bn.state_dict(),
                       conv_dtype="float16", bn_dtype=bn_dtype)
    stats = ", ".join(f"{v:.4g}" for v in bn.running_var.tolist())
    means = ", ".join(f"{v:.4g}" for v in bn.running_mean.tolist())
    what = (_describe(cfg, 1e-5) + f" with a float16 conv and a {bn_dtype} bn whose running_var is [{stats}] and "
            f"running_mean [{means}]")
    expect("error" not in res, f"{what} raised {res.get('error')}")
    for name in ("weight", "bias"):
        got = res[name]
        expect(got is not None and got["dtype"] == "torch.float16",
               f"{what}: the folded {name} has dtype {got and got['dtype']}, expected torch.float16 (conv's)")
        ref = getattr(want, name).detach().double()
        val = got["value"].double()
        expect(bool(torch.isfinite(val).all()), f"{what}: the folded {name} holds inf or nan ({val.flatten()[:6]}), "
                                                f"where torch's fold is finite ({ref.flatten()[:6]}): compute in the "
                                                f"wider dtype and cast only the result to conv's dtype")
        expect_close(val, ref, f"{what}: folded {name}", atol=2e-3, rtol=2e-3)


def test_float32_conv_after_narrower_float16_bn(student, gen):
    """a float32 conv after a float16 BatchNorm, with conv weights and a bias beyond float16's range (above 65504):
    the folded parameters are finite and equal torch's fuse_conv_bn_eval, which multiplies conv's own values in
    conv's dtype (casting conv's weight to bn's dtype first turns them into inf)"""
    cfg = dict(in_channels=3, out_channels=4, kernel_size=3, stride=1, padding=1, dilation=1, groups=1, bias=True)
    conv, bn, cs, bs = _pair(cfg, gen)
    with torch.no_grad():
        bn.running_var.copy_(torch.rand(4, generator=gen, dtype=torch.float64) + 0.5)
        conv.weight[0, 0, 0, 0] = 7e4 + 2e4 * torch.rand((), generator=gen, dtype=torch.float64)
        conv.weight[1, 2, 1, 1] = -9e4
        conv.bias[2] = 8e4
    conv, bn = conv.float(), bn.half()
    want = fuse_conv_bn_eval(conv, bn)
    res = student.call("fold_typed", cfg=cfg, conv_state=conv.state_dict(), bn_state=bn.state_dict(),
                       conv_dtype="float32", bn_dtype="float16")
    what = (_describe(cfg, 1e-5) + f" with a float32 conv (weight[0, 0, 0, 0] = {conv.weight[0, 0, 0, 0].item():.6g}, "
            f"weight[1, 2, 1, 1] = -9e4, bias[2] = 8e4: beyond float16's largest value 65504) and a float16 bn")
    expect("error" not in res, f"{what} raised {res.get('error')}")
    for name in ("weight", "bias"):
        got = res[name]
        expect(got is not None and got["dtype"] == "torch.float32",
               f"{what}: the folded {name} has dtype {got and got['dtype']}, expected torch.float32 (conv's)")
        ref = getattr(want, name).detach().double()
        val = got["value"].double()
        expect(bool(torch.isfinite(val).all()),
               f"{what}: the folded {name} holds inf or nan ({val.flatten()[:6]}), where torch's fold is finite "
               f"({ref.flatten()[:6]}): the parameters keep conv's dtype also when bn's is narrower, and a float32 "
               f"conv's values need not fit in float16; multiply them in conv's dtype, do not cast them to bn's")
        expect_close(val, ref, f"{what}: folded {name} (to float16's rounding of the scale, which torch's fold makes "
                               f"too)", atol=1e-6, rtol=2e-3)


@pytest.mark.parametrize("affine", [True, False], ids=["affine", "affine_false"])
def test_folded_conv_on_conv_device(student, affine):
    """the folded conv's weight and bias are on conv's device: run on the meta device, the grader's stand-in for a
    GPU (a Conv2d built without device=, or values copied into one, lands on the CPU), also with a
    BatchNorm2d(affine=False), whose gamma 1 and beta 0 the fold makes itself"""
    cfg = dict(in_channels=4, out_channels=4, kernel_size=3, stride=1, padding=1, dilation=1, groups=2, bias=False)
    res = student.call("fold_typed", cfg=cfg, conv_state=None, bn_state=None, conv_dtype="float32",
                       bn_dtype="float32", device="meta", affine=affine)
    what = _describe(cfg, 1e-5) + " with conv and bn on the meta device (a stand-in for a GPU)"
    if not affine:
        what = what.replace("BatchNorm2d(eps=1e-05)", "BatchNorm2d(affine=False)")
    expect("error" not in res, f"{what} raised {res.get('error')}: build the folded conv on conv's device (device="
                               f"conv.weight.device) and compute its parameters there (the same device and dtype for "
                               f"every tensor the fold makes itself: torch.ones_like/zeros_like, or device= and dtype=)")
    for name in ("weight", "bias"):
        got = res[name]
        expect(got is not None and got["device"] == "meta",
               f"{what}: the folded {name} is on {got and got['device']}, expected meta (conv's device): on a GPU "
               f"the folded conv could not run on the conv's inputs")


def test_arithmetic_written_not_called(student, gen):
    """fold_conv_bn does its own arithmetic: torch.nn.utils.fusion's helpers are not called (recorded in the worker)"""
    cfg = dict(in_channels=2, out_channels=4, kernel_size=3, stride=1, padding=1, dilation=1, groups=2, bias=True)
    conv, bn, cs, bs = _pair(cfg, gen)
    x = torch.randn(2, 2, 6, 5, generator=gen, dtype=torch.float64)
    res = student.call("fold_recorded", cfg=cfg, conv_state=cs, bn_state={**bs, "__eps__": 1e-5}, x=x)
    what = _describe(cfg, 1e-5)
    expect(not res["error"]["raised"], f"{what} raised {res['error']['type']}: {res['error']['message'][:200]}")
    expect(not res["calls"], f"{what} called torch.nn.utils.fusion's {sorted(set(res['calls']))}: write the "
                             f"arithmetic yourself (W' = s*W, b' = s*(b - mean) + beta with s = gamma/sqrt(var + eps))")


@pytest.mark.parametrize("bias", [True, False], ids=["conv_bias", "conv_no_bias"])
def test_batchnorm_without_affine(student, gen, bias):
    """a BatchNorm2d(affine=False) (no weight, no bias: gamma 1, beta 0) is folded like torch's fuse_conv_bn_eval"""
    cfg = dict(in_channels=3, out_channels=4, kernel_size=3, stride=1, padding=1, dilation=1, groups=1, bias=bias)
    conv = nn.Conv2d(**cfg).double()
    cs = J.randomize(conv, gen)
    bn = nn.BatchNorm2d(4, affine=False).double()
    bs = J.randomize(bn, gen)
    conv.eval()
    bn.eval()
    x = torch.randn(2, 3, 6, 7, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = bn(conv(x))
    ref = fuse_conv_bn_eval(conv, bn)
    res = student.call("fold_recorded", cfg=cfg, conv_state=cs, bn_state={**bs, "__eps__": 1e-5}, x=x, affine=False)
    what = _describe(cfg, 1e-5).replace("BatchNorm2d(eps=1e-05)", "BatchNorm2d(affine=False)")
    err = res["error"]
    expect(not err["raised"], f"{what} raised {err['type']}: {err['message'][:200]} (a BatchNorm2d without affine "
                              f"parameters has weight and bias None: take gamma = 1 and beta = 0)")
    expect_close(res["out"], want, f"{what}: folded_conv(x) vs bn(conv(x))", atol=1e-9, rtol=1e-7)
    expect_close(res["bias"], ref.bias.detach(), f"{what}: folded bias", atol=1e-10, rtol=1e-8)


def test_conv_in_training_mode_stays_in_it(student, gen):
    """a conv left in training mode (only bn must be in eval mode; a Conv2d computes the same in both) is folded, and
    fold_conv_bn leaves it in training mode: switching the caller's conv to eval mode modifies it"""
    cfg = dict(in_channels=2, out_channels=3, kernel_size=3, stride=1, padding=1, dilation=1, groups=1, bias=True)
    conv, bn, cs, bs = _pair(cfg, gen)
    x = torch.randn(2, 2, 5, 4, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = bn(conv(x))  # the conv's mode changes nothing it computes
    res = student.call("fold", cfg=cfg, conv_state=cs, bn_state=bs, x=x, conv_training=True)
    what = _describe(cfg, 1e-5)[:-1] + ", conv in training mode)"
    modes = res["training_after"]
    expect(modes["conv"] is True, f"{what}: afterwards conv.training is {modes['conv']}, expected True (it was in "
                                  f"training mode before the call); the task: fold_conv_bn \"must not modify `conv` or "
                                  f"`bn`\" (do not call conv.eval(): only bn's mode matters for the fold)")
    expect(modes["bn"] is False, f"{what}: afterwards bn.training is {modes['bn']}, expected False (it was in eval "
                                 f"mode before the call; it must not change)")
    expect_close(res["out"], want, f"{what}: folded_conv(x) vs bn(conv(x)) for x of shape {tuple(x.shape)}",
                 atol=1e-9, rtol=1e-7)
