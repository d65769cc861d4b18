"""Hidden checks for make_lazy_net and prepare_lazy (task 'lazy')."""
import runpy
from pathlib import Path

import pytest
import torch

from course.checks import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("lazy")
P = runpy.run_path(str(Path(__file__).with_name("probes.py")))
f64 = torch.float64
SHAPES = [[2, 1, 28, 28], [3, 3, 32, 32], [1, 2, 10, 6], [2, 5, 4, 4]]


def test_make_lazy_net_starts_uninitialized(student, gen):
    """make_lazy_net returns a model built from lazy layers (UninitializedParameter before the first call)"""
    res = student.call("lazy_net_run", num_classes=10, shapes=SHAPES[:1], seed=0)
    expect(res[0]["lazy_before"], "make_lazy_net(10): before its first forward call the model has no "
                                  "UninitializedParameter; build it from nn.LazyConv2d / nn.LazyLinear")
    kinds = set(res[0]["lazy_modules"])
    expect("LazyConv2d" in kinds and "LazyLinear" in kinds,
           f"make_lazy_net(10): expected LazyConv2d and LazyLinear layers, found lazy layers {sorted(kinds)}")


@pytest.mark.parametrize("num_classes", [10, 3])
def test_make_lazy_net_any_image_size(student, num_classes):
    """make_lazy_net works for any channel count and image size and is fully materialized afterwards"""
    res = student.call("lazy_net_run", num_classes=num_classes, shapes=SHAPES, seed=1)
    for shape, r in zip(SHAPES, res):
        what = f"make_lazy_net({num_classes}) on input of shape {tuple(shape)}"
        expect(r["out_shape"] == [shape[0], num_classes],
               f"{what}: output shape {r['out_shape']}, expected {[shape[0], num_classes]}")
        expect(not r["still_lazy"], f"{what}: parameters are still uninitialized after a forward call")


def prepare(student, gen, train_mode=True, lr=0.05):
    x = torch.randn(3, 2, 8, 8, generator=gen, dtype=f64)
    r = student.call("prepare_lazy_run", x=x, lr=lr, train_mode=train_mode, seed=int(torch.randint(0, 10**6, (1,), generator=gen)))
    what = f"prepare_lazy(lazy model, example of shape {tuple(x.shape)} float64, lr={lr})"
    return r, what


def test_prepare_materializes_in_example_dtype(student, gen):
    """prepare_lazy materializes every parameter, in the example's dtype, and returns an optimizer over all of them"""
    r, what = prepare(student, gen)
    expect(not r["uninitialized"], f"{what}: still uninitialized afterwards: {r['uninitialized'][:4]} (no dry run?)")
    bad = {n: d for n, d in r["dtypes"].items() if d != "torch.float64"}
    expect(not bad, f"{what}: parameters should be float64 like the example, got {bad}")
    expect(r["is_optimizer"], f"{what}: did not return a torch.optim.Optimizer")
    names = r["opt_names"]
    expect(len(names) == len(set(names)), f"{what}: the optimizer holds some parameters twice: {names}")
    missing = sorted(set(r["dtypes"]) - set(names))
    expect(not missing, f"{what}: the optimizer does not hold {missing} (create it after the dry run, "
                        f"from model.parameters())")
    foreign = [n for n in names if n not in r["dtypes"]]
    expect(not foreign, f"{what}: the optimizer holds tensors that are not the model's parameters")
    for lr in r["opt_lrs"]:
        expect(abs(lr - 0.05) < 1e-12, f"{what}: optimizer lr is {lr}, expected 0.05")


@pytest.mark.parametrize("train_mode", [True, False], ids=["train", "eval"])
def test_dry_run_leaves_no_trace(student, gen, train_mode):
    """The dry run changes no BatchNorm statistics, sets no gradients, restores train/eval mode, keeps the example"""
    r, what = prepare(student, gen, train_mode=train_mode)
    mode = "train" if train_mode else "eval"
    expect(all(m == train_mode for m in r["modes"]),
           f"{what} on a model in {mode} mode: afterwards the modules' modes are {r['modes']}; restore them")
    expect(not r["grads_set"], f"{what}: the dry run left gradients on {r['grads_set'][:4]}")
    expect(not r["x_changed"], f"{what}: the example batch was modified")
    fresh = {"1.running_mean": torch.zeros(4, dtype=f64), "1.running_var": torch.ones(4, dtype=f64),
             "1.num_batches_tracked": torch.tensor(0)}
    for k, v in fresh.items():
        if k not in r["buffers"]:
            fail(f"{what}: BatchNorm buffer '{k}' is missing afterwards")
        got = r["buffers"][k]
        if k.endswith("num_batches_tracked"):
            expect_equal(got, v, f"{what}: BatchNorm '{k}' after the dry run (dry-run in eval mode, not train mode)")
        else:
            expect_close(got, v, f"{what}: BatchNorm '{k}' after the dry run must still be its initial value "
                                 f"(dry-run in eval mode)", atol=0, rtol=0)


def test_optimizer_trains_the_materialized_parameters(student, gen):
    """One step of the returned SGD(momentum=0.9) moves every parameter by -lr * grad"""
    r, what = prepare(student, gen, lr=0.1)
    if r["uninitialized"] or not r["is_optimizer"]:
        fail(f"{what}: no usable optimizer (parameters uninitialized: {r['uninitialized'][:3]})")
    for n, before in r["before"].items():
        g = r["grads"][n]
        if g is None:
            fail(f"{what}: no gradient reached '{n}' in a training step")
        expect_close(r["after"][n], before - 0.1 * g, f"{what}: '{n}' after one optimizer step", atol=1e-12, rtol=1e-9)
