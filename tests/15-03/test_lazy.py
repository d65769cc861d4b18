"""Hidden checks for make_lazy_net and prepare_lazy (task 'lazy')."""
import runpy
from pathlib import Path

import pytest
import torch

from course.judge.adapter import StudentFailure
from course.judge.expect import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("lazy")
P = runpy.run_path(str(Path(__file__).with_name("probes.py")))
f64 = torch.float64
SHAPES = [[2, 1, 28, 28], [3, 3, 32, 32], [1, 2, 10, 6], [2, 5, 4, 4]]


@pytest.mark.task("lazy", weight=0.1)  # its right answer is a constant (lazy layers): worth little
def test_make_lazy_net_starts_uninitialized(student, gen):
    """make_lazy_net returns a model built from lazy layers (UninitializedParameter before the first call)"""
    res = student.call("lazy_net_run", num_classes=10, shapes=SHAPES[:1], seed=0)
    expect(res[0]["lazy_before"], "make_lazy_net(10): before its first forward call the model has no "
                                  "UninitializedParameter; build it from nn.LazyConv2d / nn.LazyLinear")
    kinds = set(res[0]["lazy_modules"])
    expect("LazyConv2d" in kinds and "LazyLinear" in kinds,
           f"make_lazy_net(10): expected LazyConv2d and LazyLinear layers, found lazy layers {sorted(kinds)}")


@pytest.mark.parametrize("num_classes", [10, 3])
def test_make_lazy_net_any_image_size(student, gen, num_classes):
    """make_lazy_net works for any channel count and image size and is fully materialized afterwards"""
    # four inputs (batch, channels, height, width) of sizes drawn per student
    shapes = [[int(torch.randint(lo, hi, (1,), generator=gen)) for lo, hi in ((1, 5), (1, 6), (2, 33), (2, 33))]
              for _ in range(4)]
    res = student.call("lazy_net_run", num_classes=num_classes, shapes=shapes, seed=1)
    # one result per input shape the judge sent: a shorter reply would otherwise leave shapes unchecked
    if not isinstance(res, list) or len(res) != len(shapes):
        fail(f"make_lazy_net({num_classes}) on inputs of shapes {[tuple(s) for s in shapes]}: expected one result per "
             f"input ({len(shapes)}), got {len(res) if isinstance(res, list) else type(res).__name__}")
    for shape, r in zip(shapes, res):
        what = f"make_lazy_net({num_classes}) on input of shape {tuple(shape)}"
        expect(r["out_shape"] == [shape[0], num_classes],
               f"{what}: output shape {r['out_shape']}, expected {[shape[0], num_classes]}")
        expect(not r["still_lazy"], f"{what}: parameters are still uninitialized after a forward call")


def reference_lazy_net(num_classes):
    return torch.nn.Sequential(torch.nn.LazyConv2d(16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                               torch.nn.Flatten(), torch.nn.LazyLinear(64), torch.nn.ReLU(),
                               torch.nn.LazyLinear(num_classes))


@pytest.mark.parametrize("shape", [[2, 3, 9, 7], [1, 1, 6, 6]], ids=["3x9x7", "1x6x6"])
def test_make_lazy_net_layers(student, gen, shape):
    """make_lazy_net is exactly LazyConv2d(16, 3, padding=1), ReLU, MaxPool2d(2), Flatten, LazyLinear(64), ReLU,
    LazyLinear(num_classes): same parameter shapes and, with the same parameter values, the same output"""
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    r = student.call("lazy_net_structure", num_classes=4, shape=shape, seed=seed)
    what = f"make_lazy_net(4) materialized on input of shape {tuple(shape)}"
    ref = reference_lazy_net(4)
    with torch.no_grad():
        ref.eval()
        ref(torch.zeros(*shape))
        g = torch.Generator().manual_seed(seed)
        want_shapes = []
        for p in ref.parameters():
            want_shapes.append(list(p.shape))
            p.copy_(torch.randn(p.shape, generator=g) * 0.3)
        x = torch.randn(*shape, generator=g)
        want = ref(x)
    expect_equal(r["shapes"], want_shapes, f"{what}: the parameter shapes, in order (conv weight, conv bias, "
                                           f"first linear weight and bias, last linear weight and bias)")
    if r["out"] is None:
        fail(f"{what}: the model did not return a tensor")
    expect_close(r["out"], want, f"{what}, with every parameter set to the same values as the judge's copy: "
                                 f"output", atol=1e-5, rtol=1e-4)


def prepare(student, gen, train_mode=True, lr=0.05, steps=1, dtype=f64, caller_no_grad=False, frozen_first=False,
            ready=False, bn_stats=None, kind="cnn", shape=(3, 2, 8, 8), example_device=None):
    x = torch.randn(*shape, generator=gen, dtype=dtype)
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    r = student.call("prepare_lazy_run", x=x, lr=lr, train_mode=train_mode, steps=steps, seed=seed,
                     caller_no_grad=caller_no_grad, frozen_first=frozen_first, ready=ready, bn_stats=bn_stats,
                     kind=kind, **({} if example_device is None else {"example_device": example_device}))
    if isinstance(r, dict):
        r["judge_seed"] = seed  # the judge's, for replay_sgd's starting values (never the worker's word)
    mode = "mixed" if isinstance(train_mode, list) else {True: "train", False: "eval"}.get(train_mode, train_mode)
    model = "lazy model after a frozen 1x1 conv" if frozen_first else "lazy model"
    if kind == "mlp":
        model = "lazy MLP Flatten, LazyLinear(6), LazyBatchNorm1d, ReLU, Dropout(0.5), LazyLinear(3)"
    if kind == "shared":
        model = ("lazy CNN whose one Dropout is registered in two sub-blocks, '1.1' and '3.1' (model.modules() lists "
                 "it once, as module 4)")
    if kind == "buffers":
        model = ("model Conv2d(2, 4, 3), LazyBatchNorm2d(affine=False), ReLU, AdaptiveAvgPool2d(1), Flatten, "
                 "Linear(4, 3): its only lazy part is the BatchNorm's running_mean and running_var "
                 "(UninitializedBuffer), it has no UninitializedParameter")
    if ready:
        model = "model already materialised in float32 (not lazy any more)"
    if bn_stats is not None:
        model += (", whose BatchNorm already holds statistics from training (num_batches_tracked "
                  f"{bn_stats['num_batches_tracked']})")
    what = (f"prepare_lazy({model} in {mode} mode, example of shape {tuple(x.shape)} "
            f"{str(dtype).replace('torch.', '')}, lr={lr})")
    if caller_no_grad:
        what += " called inside the caller's `with torch.no_grad():` block"
    if example_device is not None:
        what += (f", the example on the {example_device} device (the judge's stand-in for a GPU) and the model on "
                 f"the CPU")
    return r, x, what


# float32 too: casting to a fixed dtype (e.g. .double(), the visible example's) instead of example.dtype;
# "ready": a model that is already materialised (float32) must still be cast ("a (possibly lazy) model"): an
# early return for a model with nothing left to materialise skips the cast
# bfloat16: choosing between .double() and .float() instead of casting to example.dtype
@pytest.mark.parametrize("dtype,ready", [(f64, False), (torch.float32, False), (f64, True), (torch.bfloat16, False)],
                         ids=["float64", "float32", "float64-materialised-float32-model", "bfloat16"])
def test_prepare_materializes_in_example_dtype(student, gen, dtype, ready):
    """prepare_lazy materializes every parameter, in the example's dtype, and returns an optimizer over all of them"""
    lr = float(torch.empty(()).uniform_(0.01, 0.2, generator=gen))
    r, _, what = prepare(student, gen, lr=lr, dtype=dtype, ready=ready)
    # the parameter names of the judge's own copy of the model: every one must be reported (and cast)
    want_names = sorted(n for n, _ in P["build_lazy_model"]().named_parameters())
    if sorted(r["dtypes"]) != want_names:
        fail(f"{what}: expected the parameters {want_names} afterwards, found {sorted(r['dtypes'])}")
    expect(not r["uninitialized"], f"{what}: still uninitialized afterwards: {r['uninitialized'][:4]} (no dry run?)")
    bad = {n: d for n, d in r["dtypes"].items() if d != str(dtype)}
    expect(not bad, f"{what}: the clause 'casts the model to example's dtype': parameters should be {dtype} "
                    f"like the example, got {bad}")
    expect(r["is_optimizer"], f"{what}: did not return a torch.optim.Optimizer")
    expect(not r.get("opt_on_placeholders"),
           f"{what}: an optimizer (torch.optim.SGD, however it was imported) was constructed while the model "
           f"still had UninitializedParameter placeholders; the clause 'returns torch.optim.SGD(model.parameters(), "
           f"lr=lr, momentum=0.9), created after the dry run': it was created before")
    names = r["opt_names"]
    expect(len(names) == len(set(names)), f"{what}: the optimizer holds some parameters twice: {names}")
    missing = sorted(set(r["dtypes"]) - set(names))
    expect(not missing, f"{what}: the optimizer does not hold {missing} (create it after the dry run, "
                        f"from model.parameters())")
    foreign = [n for n in names if n not in r["dtypes"]]
    expect(not foreign, f"{what}: the optimizer holds tensors that are not the model's parameters")
    for got in r["opt_lrs"]:
        expect(abs(got - lr) < 1e-12, f"{what}: optimizer lr is {got}, expected {lr}")


def test_moves_the_model_to_the_examples_device(student, gen):
    """prepare_lazy moves the model to the example's device (asks for it, or, with the example on the judge's stand-in for a GPU, the model ends there), not only casts it"""
    # recorded in the judge worker: on a CPU-only run a model never moved still ends up on the CPU. A move asked
    # for (model.to(device, dtype), .to(example), .cpu()/.cuda()) passes; else (a move made only when needed, e.g.
    # `if <a parameter elsewhere>: model.to(example.device)`) the probe runs again with the example on meta and
    # a materialised CPU model (probes.prepare_lazy_run: a lazy parameter moved to meta would not stay lazy)
    r, x, what = prepare(student, gen)
    if x.device.type in r["moved_to"]:
        return
    s, _, what_meta = prepare(student, gen, ready=True, example_device="meta")
    away = {n: d for n, d in s["devices"].items() if d != "meta"}
    expect(not away, f"{what}: the clause 'moves and casts the model to example's device and dtype': the model was "
           f"never moved to the example's device ({x.device.type}); its moves asked for {r['moved_to'] or 'nothing'} "
           f"(None: a dtype only). Then {what_meta}: its moves asked for {s['moved_to'] or 'nothing'}, and "
           f"afterwards {len(away)} of its {len(s['devices'])} parameters and buffers were not on the example's "
           f"device: {dict(list(away.items())[:3])}"
           + (f"; the call raised {s['error']}" if s["error"] else "")
           + ". On a GPU, a CPU model would meet a GPU batch")


ONE_MODE = pytest.mark.task("lazy", weight=0.1)  # every module in one mode: a constant answer, worth little


# shared: one module in two sub-blocks, its own mode other than its second parent's; restoring each mode with the
# recursive m.train(mode) in model.modules() order (parents first) is right for a tree, but the second parent,
# restored after the shared module, overwrites it
@pytest.mark.parametrize("train_mode", [pytest.param("train", marks=ONE_MODE), pytest.param("eval", marks=ONE_MODE),
                                        "mixed", "shared"])
def test_dry_run_restores_every_modules_mode(student, gen, train_mode):
    """Afterwards every module is back in the train/eval mode it was in (also when the modes were mixed)"""
    kind = "shared" if train_mode == "shared" else "cnn"
    mods = list(P["build_lazy_model"](kind).modules())
    n = len(mods)
    if train_mode in ("mixed", "shared"):  # a random mix of both modes, drawn per student
        flags = [bool(b) for b in torch.randperm(n, generator=gen) % 2]
    else:
        flags = [train_mode == "train"] * n
    hint = ""
    if kind == "shared":  # the shared Dropout (module 4) in the mode its second parent (module 6, '3') is not in
        assert isinstance(mods[4], torch.nn.Dropout) and mods[4] is mods[6][1]  # the check's own precondition
        flags[4] = not flags[6]
        hint = (" (module 4, the Dropout, also sits in module 6: restoring module 6 with the recursive "
                "module.train(mode) after module 4 overwrites it; set each module's own flag, module.training = mode)")
    r, _, what = prepare(student, gen, train_mode=flags if train_mode in ("mixed", "shared") else train_mode,
                         kind=kind, steps=0 if kind == "shared" else 1)
    if r["modes"] != flags:
        bad = [k for k, (a, b) in enumerate(zip(flags, r["modes"])) if a != b]
        fail(f"{what}: module training flags (in model.modules() order) were {flags} before and "
             f"{r['modes']} after (modules {bad} changed); save and restore each module's own mode"
             + (hint if 4 in bad else ""))


# the statistics must stay at their fresh values: a constant answer, worth little
@pytest.mark.task("lazy", weight=0.1)
@pytest.mark.parametrize("train_mode", [True, False], ids=["train", "eval"])
def test_dry_run_leaves_batchnorm_statistics(student, gen, train_mode):
    """The dry run leaves the BatchNorm running statistics at their initial values (it runs in eval mode)"""
    r, _, what = prepare(student, gen, train_mode=train_mode)
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


# a model that already carries BatchNorm statistics (a trained body given a new lazy head): a dry run left in
# training mode and then "undone" with reset_running_stats() passes the fresh-statistics check above, but wipes
# these to 0 / 1 / 0
# and its trained parameters: re-initialising the weights after the dry run ("now that the shapes are known")
# wipes a model that was materialised already; they may only be cast (float32 -> float64 is exact)
def test_dry_run_keeps_trained_batchnorm_statistics(student, gen):
    """A model whose BatchNorm already holds statistics from training keeps them exactly (no reset, no update),
    and its parameters keep their values (only cast to the example's dtype)"""
    stats = {"running_mean": torch.randn(4, generator=gen, dtype=f64).float().double(),
             "running_var": torch.empty(4, dtype=f64).uniform_(0.5, 2.0, generator=gen).float().double(),
             "num_batches_tracked": int(torch.randint(5, 500, (1,), generator=gen))}
    r, x, what = prepare(student, gen, train_mode=True, ready=True, bn_stats=stats)
    # the values before the call from the judge's own copy, materialised as the probe does (same seed, same x,
    # float32, eval mode), not from the worker's word
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(r["judge_seed"])
        ref = P["build_lazy_model"]()
        with torch.no_grad():
            ref.float().eval()(x.detach().float())
    values_before = {n: p.detach().clone() for n, p in ref.named_parameters()}
    if sorted(r["values_after_call"]) != sorted(values_before):
        fail(f"{what}: expected the parameters {sorted(values_before)} afterwards, found "
             f"{sorted(r['values_after_call'])}")
    for n, before in values_before.items():
        got = r["values_after_call"].get(n)
        if got is None:
            fail(f"{what}: parameter '{n}' is missing afterwards")
        expect_close(got, before.to(x.dtype), f"{what}: the clause 'takes a (possibly lazy) model ... without "
                                              f"leaving a trace': parameter '{n}' after the call vs its value before "
                                              f"it, cast to {x.dtype} (an already materialised model keeps its "
                                              f"weights; nothing re-initialises them)", atol=0, rtol=0)
    for k in ("running_mean", "running_var"):
        got = r["buffers"].get("1." + k)
        if got is None:
            fail(f"{what}: BatchNorm buffer '1.{k}' is missing afterwards")
        expect_close(got, stats[k], f"{what}: the clause 'no change to BatchNorm running statistics': BatchNorm "
                                    f"'1.{k}' after the call (before it: {[round(v, 4) for v in stats[k].tolist()]})",
                     atol=0, rtol=0)
    got = r["buffers"].get("1.num_batches_tracked")
    expect_equal(got, torch.tensor(stats["num_batches_tracked"]),
                 f"{what}: the clause 'no change to BatchNorm running statistics': BatchNorm '1.num_batches_tracked' "
                 f"after the call")


# the usual dry run is one example, model(torch.zeros(1, C, H, W)): in eval mode a BatchNorm uses its running
# statistics; a dry run left in training mode (statistics saved and put back) raises, since BatchNorm1d in
# training mode needs more than one value per channel
def test_dry_run_on_a_batch_of_one(student, gen):
    """A dry run on an example batch of one image works for a model with BatchNorm1d and Dropout in training mode
    (it runs in eval mode) and leaves the statistics and modes as they were"""
    try:
        r, _, what = prepare(student, gen, train_mode=True, steps=0, kind="mlp", shape=(1, 2, 4, 4))
    except StudentFailure as exc:
        fail(f"prepare_lazy(lazy MLP with a LazyBatchNorm1d and a Dropout, in train mode, example of shape "
             f"(1, 2, 4, 4) float64): {exc}. The clause 'dry-runs it on example': one example is a valid batch; "
             f"section 4 runs the dry run in eval() mode, where BatchNorm uses its running statistics (in training "
             f"mode it refuses a batch of one)")
    expect(not r["uninitialized"], f"{what}: still uninitialized afterwards: {r['uninitialized'][:4]}")
    fresh = {"2.running_mean": torch.zeros(6, dtype=f64), "2.running_var": torch.ones(6, dtype=f64),
             "2.num_batches_tracked": torch.tensor(0)}
    for k, v in fresh.items():
        got = r["buffers"].get(k)
        if got is None:
            fail(f"{what}: BatchNorm buffer '{k}' is missing afterwards")
        msg = f"{what}: the clause 'no change to BatchNorm running statistics': BatchNorm '{k}' after the dry run"
        if k.endswith("num_batches_tracked"):
            expect_equal(got, v, msg)
        else:
            expect_close(got, v, msg, atol=0, rtol=0)
    expect(r["modes"] == r["modes_before"], f"{what}: module training flags were {r['modes_before']} before and "
                                            f"{r['modes']} after")


# a dry run only when some parameter is still an UninitializedParameter (the visible checks' test), to spare the
# forward pass of a model already materialised, misses lazy layers without parameters: the buffers stay lazy
def test_dry_run_materialises_lazy_buffers(student, gen):
    """prepare_lazy dry-runs a model whose only lazy part is a LazyBatchNorm2d(affine=False) (buffers, no
    parameters): afterwards its running statistics exist, fresh, in the example's dtype"""
    r, x, what = prepare(student, gen, train_mode=True, steps=0, kind="buffers",
                         shape=(int(torch.randint(2, 5, (1,), generator=gen)), 2, 6, 6))
    expect(not r["uninitialized_buffers"],
           f"{what}: still UninitializedBuffer afterwards: {r['uninitialized_buffers']}; the clause 'dry-runs it on "
           f"example': the dry run is what materialises a lazy model, also one whose lazy layers own buffers but no "
           f"parameters (a test for UninitializedParameter alone misses them)")
    fresh = {"1.running_mean": torch.zeros(4, dtype=x.dtype), "1.running_var": torch.ones(4, dtype=x.dtype),
             "1.num_batches_tracked": torch.tensor(0)}
    for k, v in fresh.items():
        got = r["buffers"].get(k)
        if got is None:
            fail(f"{what}: BatchNorm buffer '{k}' is missing afterwards")
        expect(got.dtype == v.dtype, f"{what}: BatchNorm '{k}' is {got.dtype} afterwards, expected {v.dtype}")
        msg = (f"{what}: the clause 'no change to BatchNorm running statistics': BatchNorm '{k}' after the dry run "
               f"(materialised fresh, then left alone: eval mode)")
        if k.endswith("num_batches_tracked"):
            expect_equal(got, v, msg)
        else:
            expect_close(got, v, msg, atol=0, rtol=0)
    expect(r["modes"] == r["modes_before"], f"{what}: module training flags were {r['modes_before']} before and "
                                            f"{r['modes']} after")


def test_dry_run_builds_no_graph(student, gen):
    """The dry run records no autograd graph (torch.no_grad) and leaves no gradients or changed example"""
    r, x, what = prepare(student, gen)
    seen = r["dry_run"]
    if not seen:
        fail(f"{what}: the model's last layer was never called during prepare_lazy (no dry run?)")
    expect(not seen["requires_grad"] and not seen["grad_enabled"],
           f"{what}: during the dry run gradient recording was on (output requires grad: {seen['requires_grad']}); "
           f"run it under torch.no_grad()")
    expect(not r["grads_set"], f"{what}: the dry run left gradients on {r['grads_set'][:4]}")
    expect(not r["global_changes"], f"{what}: the clause 'without leaving a trace': process-wide settings "
                                    f"changed by the call: {r['global_changes']}")
    x_after = r["x_after"]
    expect(isinstance(x_after, torch.Tensor) and x_after.shape == x.shape and torch.equal(x_after, x),
           f"{what}: the example batch was modified")


# a caller that builds models under no_grad, with a frozen (pretrained) first layer: switching grad mode off
# and then unconditionally on again (instead of a `with torch.no_grad():` block) hands it back with grad mode
# enabled; requires_grad set to True on every parameter after the dry run un-freezes the frozen layer
@pytest.mark.task("lazy", weight=0.1)  # its right answer is a constant (nothing changed): worth little
def test_dry_run_leaves_callers_grad_state(student, gen):
    """Called inside torch.no_grad(), prepare_lazy leaves grad mode, global settings and frozen parameters as they were"""
    r, x, what = prepare(student, gen, caller_no_grad=True, frozen_first=True)
    # the frozen stem existed before the call: its values may only be cast (float32 -> float64 is exact); the
    # judge builds it as the probe does (same seed, after the lazy layers, which draw nothing when built).
    # Re-initialising every layer once the lazy ones are materialised wipes it, on a model that was lazy
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(r["judge_seed"])
        P["build_lazy_model"]()
        stem = torch.nn.Conv2d(x.shape[1], x.shape[1], 1)
    for n, p in stem.named_parameters():
        got = r["values_after_call"].get("0." + n)
        if got is None:
            fail(f"{what}: the frozen stem's parameter '0.{n}' is missing afterwards")
        expect_close(got, p.detach().to(x.dtype), f"{what}: the clause 'no change ... to the values of parameters "
                     f"that already exist, beyond the cast': the frozen, already materialised stem's '0.{n}' after the "
                     f"call vs its value before it, cast to {x.dtype} (only the lazy layers' new weights are "
                     f"initialised)", atol=0, rtol=0)
    expect(not r["global_changes"], f"{what}: the clause 'without leaving a trace': expected grad mode still "
                                    f"disabled (as the caller set it) and no other process-wide setting changed, "
                                    f"got: {r['global_changes']} (restore the previous mode, e.g. with a "
                                    f"`with torch.no_grad():` block, not set_grad_enabled(True))")
    expect(not r["requires_grad_changed"], f"{what}: the clause 'without leaving a trace': parameters changed "
                                           f"requires_grad: {r['requires_grad_changed'][:4]} (frozen ones must "
                                           f"stay frozen)")


def test_parameters_are_not_inference_tensors(student, gen):
    """The parameters are normal tensors that can train (dry run under no_grad, not inference_mode)"""
    r, x, what = prepare(student, gen)
    expect(not r["inference_params"] and not r["dry_run"].get("inference_mode", False),
           f"{what}: parameters {r['inference_params'][:4]} were materialized as inference tensors (the dry run "
           f"ran under torch.inference_mode()); use torch.no_grad()")
    # they train: backward gives each one the gradient the judge's copy (same values, same x) gets
    expect("grads" in r, f"{what}: no training step could be taken (uninitialized parameters or no optimizer)")
    for n, w in replay_sgd(r, x, 0.05, 1, grads=True).items():
        expect_close(r["grads"].get(n), w, f"{what}: gradient of '{n}' in a training step", atol=1e-10, rtol=1e-8)


def replay_sgd(r, x, lr, steps, grads=False):
    """The judge's own copy of the lazy model, loaded with the submission's starting state, trained on the
    same loss with the SGD-with-momentum update written out (PyTorch's rule: buf = 0.9 * buf + grad,
    p -= lr * buf; the first buf is the grad): the parameters it should end with (with grads=True: the
    gradients of the first step)."""
    torch.manual_seed(0)
    m = P["build_lazy_model"]().to(f64)
    with torch.no_grad():
        m.eval()
        m(x)
    m.load_state_dict(r["state"])
    # Anchored: the probe wrote these starting values (seed + 1, in parameter order) before training; a
    # parameter that did not take them (a copy_ that does nothing) would let the replay start where it likes.
    start = torch.Generator().manual_seed(r["judge_seed"] + 1)
    for n, p in m.named_parameters():
        if not torch.equal(p.detach(), torch.randn(p.shape, generator=start, dtype=p.dtype) * 0.5):
            fail(f"parameter '{n}' does not hold the values the check wrote into it with p.copy_(...) under "
                 f"torch.no_grad() before training (a parameter must be a plain nn.Parameter the model keeps)")
    m.train()
    bufs = {}
    for _ in range(steps):
        m.zero_grad()
        m(x).square().mean().backward()
        if grads:
            return {n: p.grad.detach().clone() for n, p in m.named_parameters()}
        with torch.no_grad():
            for n, p in m.named_parameters():
                bufs[n] = p.grad.clone() if n not in bufs else bufs[n].mul(0.9).add(p.grad)
                p.sub_(lr * bufs[n])
    return {n: p.detach() for n, p in m.named_parameters()}


def test_optimizer_is_sgd_with_momentum(student, gen):
    """Two steps of the returned optimizer move every parameter as SGD(lr, momentum=0.9) does"""
    r, x, what = prepare(student, gen, lr=0.1, steps=2)
    if r["uninitialized"] or not r["is_optimizer"] or "after" not in r:
        fail(f"{what}: no usable optimizer (parameters uninitialized: {r['uninitialized'][:3]}, inference "
             f"tensors: {r.get('inference_params', [])[:3]})")
    want = replay_sgd(r, x, 0.1, 2)
    for n, w in want.items():
        if n not in r["after"]:
            fail(f"{what}: parameter '{n}' is missing after two steps")
        expect_close(r["after"][n], w, f"{what}: '{n}' after two steps of the returned optimizer vs "
                                       f"torch.optim.SGD(lr=0.1, momentum=0.9)", atol=1e-10, rtol=1e-8)
