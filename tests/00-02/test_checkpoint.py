"""Hidden checks of Checkpoint / checkpoint (exercise 5): values, gradients and RNG state against a plain run of the
same model from the same seed on the judge, and the tensors saved counted with saved_tensors_hooks."""
import importlib.util
import sys
from pathlib import Path

import torch
import pytest
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, expect_close, fail
from course.judge.strategies import build_model, model_specs


if "course_00_02_graphs" not in sys.modules:  # the probes' vary_model, applied here by the judge too
    _s = importlib.util.spec_from_file_location("course_00_02_graphs", Path(__file__).with_name("probes.py"))
    sys.modules["course_00_02_graphs"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_00_02_graphs"])
G = sys.modules["course_00_02_graphs"]

pytestmark = pytest.mark.task("checkpoint")


def plain(spec, x, x_grad, seed, v, unused=False, variant=None):
    model = G.vary_model(build_model(spec), variant)
    if unused:
        model.spare = torch.nn.Parameter(torch.ones(3))
    model.train()
    x = x.clone().requires_grad_(x_grad)
    torch.manual_seed(seed)
    out = model(x)
    rng = torch.get_rng_state()
    wrt = ([x] if x_grad else []) + [p for p in model.parameters() if p.requires_grad]
    return out.detach(), list(torch.autograd.grad((out * v).sum(), wrt, allow_unused=True)), rng


VARIANTS = {None: "", "frozen_alpha": ", nn.AlphaDropout instead of nn.Dropout and the first Linear layer frozen "
                                       "(requires_grad False; the gradients asked for are those of x and the "
                                       "trainable parameters)",
            "hooked": ", a forward pre-hook (input * 2) and a forward hook (output + 0.5) registered on the block "
                      "itself (block(x) runs them, block.forward(x) does not)"}


def judge(student, spec, gen, x_grad, batch=None, unused=False, variant=None, zero_v=False, twice=False):
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(batch or int(torch.randint(2, 6, (1,), generator=gen)), spec["in"], generator=gen)
    model = build_model(spec)
    with torch.no_grad():
        v = torch.randn(model(x).shape, generator=gen)
    if zero_v:  # no gradient flows back: every used parameter still gets a gradient, of zeros
        v = torch.zeros_like(v)
    what = (f"checkpoint(block, x) for a block of widths {spec['in']}-{'-'.join(map(str, spec['hidden']))}-"
            f"{spec['out']} (dropout {spec['dropout']}, forward argument '{spec['arg']}'), x of shape "
            f"{tuple(x.shape)}{' requiring grad' if x_grad else ''}, torch.manual_seed({seed}) before the call"
            f"{' and a parameter the block never uses' if unused else ''}{VARIANTS[variant]}")
    res = student.call("run_checkpoint", spec=spec, x=x, x_grad=x_grad, seed=seed, v=v, unused=unused,
                       **({"variant": variant} if variant else {}), **({"twice": True} if twice else {}))
    want, grads, rng = plain(spec, x, x_grad, seed, v, unused, variant)
    if isinstance(res["out"], str):
        fail(f"{what}: returned {res['out']}")
    return res, want, grads, rng, what, x


def check_values_and_grads(res, want, grads, what, x_grad):
    expect_close(res["out"], want, f"{what}: the output, against block(x) from the same seed", atol=1e-5, rtol=1e-5)
    if res["error"]:
        fail(f"{what}: differentiating <v, output> failed: {res['error']}")
    expect(res["x_requires_grad_after"] == x_grad, f"{what}: after forward and backward, x.requires_grad is "
           f"{res['x_requires_grad_after']}, expected {x_grad} as before the call; x must be left as it was "
           f"(in backward, recompute from a detached copy: x.detach().requires_grad_())")
    expect(res["x_unchanged"], f"{what}: after forward and backward, the values of x changed; x must be left as it was")
    names = (["x"] if x_grad else []) + [f"parameter {k}" for k in range(len(grads) - x_grad)]
    expect(len(res["grads"]) == len(grads), f"{what}: expected {len(grads)} gradients")
    for name, g, w in zip(names, res["grads"], grads):
        if w is None:  # a parameter the output does not depend on: None or zeros
            expect(g is None or not bool(g.any()), f"{what}: {name} does not affect the output, yet got a nonzero "
                                                   f"gradient")
            continue
        if g is None:
            fail(f"{what}: no gradient reached {name}")
        expect_close(g, w, f"{what}: the gradient of {name} of <v, output>, against a plain block(x)",
                     atol=1e-5, rtol=1e-4)


@settings(max_examples=4, deadline=None)
@given(spec=model_specs(norm=False, dropout=True), x_grad=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_matches_plain_block(student, spec, x_grad, seed):
    """values and gradients match a plain block(x) from the same RNG state, dropout included"""
    res, want, grads, _, what, _ = judge(student, spec, torch.Generator().manual_seed(seed), x_grad)
    check_values_and_grads(res, want, grads, what, x_grad)


@pytest.mark.parametrize("x_grad", [False, True])
def test_saves_only_the_input(student, gen, x_grad):
    """forward saves only x (and keeps nothing else: the output is freed when the caller drops it)"""
    spec = {"arg": "inputs", "in": 6, "out": 3, "hidden": [5, 4], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, _, what, x = judge(student, spec, gen, x_grad)
    expect(res["saved"] == 1 and res["saved_bytes"] == x.numel() * x.element_size(),
           f"{what}: {res['saved']} tensors ({res['saved_bytes']} bytes) were saved for backward; only x "
           f"({x.numel() * x.element_size()} bytes) should be")
    expect(res["output_freed"], f"{what}: once the caller dropped the output (after backward), it was still alive "
                                f"(with the garbage collector off): something keeps it, such as ctx holding the "
                                f"output (a reference cycle through its own node); forward saves only x for "
                                f"backward")
    check_values_and_grads(res, want, grads, what, x_grad)


def test_rng_state(student, gen):
    """the RNG state after forward is that of a plain block(x), and backward leaves it unchanged"""
    spec = {"arg": "x", "in": 5, "out": 2, "hidden": [6], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, _, _, rng, what, _ = judge(student, spec, gen, True)
    expect(torch.equal(res["rng_forward"], rng), f"{what}: the global RNG state after the call differs from the "
                                                 f"one a plain block(x) leaves")
    expect(res["rng_backward_same"], f"{what}, then torch.rand(5) drawn before backward (as a later dropout would): "
                                     f"the global RNG state after backward differs from the one just before it; "
                                     f"backward must not change it (restore it, e.g. with torch.random.fork_rng())")


def test_batch_of_one(student, gen):
    """a batch of one sample with one output: still a gradient per parameter"""
    spec = {"arg": "batch", "in": 4, "out": 1, "hidden": [3], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, _, what, _ = judge(student, spec, gen, True, batch=1)
    check_values_and_grads(res, want, grads, what, True)


@pytest.mark.parametrize("x_grad", [False, True])
def test_other_random_layer_frozen_first(student, gen, x_grad):
    """a block whose random layer is not an nn.Dropout and whose first layer is frozen: same values, gradients
    and RNG state as a plain block(x)"""
    spec = {"arg": "x", "in": 5, "out": 3, "hidden": [6, 4], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, rng, what, _ = judge(student, spec, gen, x_grad, variant="frozen_alpha")
    check_values_and_grads(res, want, grads, what, x_grad)
    expect(torch.equal(res["rng_forward"], rng), f"{what}: the global RNG state after the call differs from the "
                                                 f"one a plain block(x) leaves")
    expect(res["rng_backward_same"], f"{what}: backward changed the global RNG state")


@pytest.mark.parametrize("x_grad", [False, True])
def test_block_with_hooks(student, gen, x_grad):
    """a block with a forward pre-hook and a forward hook on itself: values and gradients of a plain block(x), whose
    call runs the hooks, in forward and in backward's recomputation"""
    spec = {"arg": "inputs", "in": 5, "out": 3, "hidden": [6], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, _, what, _ = judge(student, spec, gen, x_grad, variant="hooked")
    check_values_and_grads(res, want, grads, what + " (call the block, block(x), when recomputing it too)", x_grad)


def test_unused_parameter(student, gen):
    """a block with a parameter its forward never uses"""
    spec = {"arg": "data", "in": 4, "out": 2, "hidden": [3, 3], "norm": False, "dropout": False,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, _, what, _ = judge(student, spec, gen, False, unused=True)
    check_values_and_grads(res, want, grads, what, False)


def check_chain(student, specs, order, x, v, seed, what):
    """checkpoint(...) over ``specs``' blocks in ``order`` from ``seed``, then backward(), against the judge's plain run
    of the same blocks in the same order from the same seed: the output and every .grad."""
    res = student.call("run_checkpoint_chain", specs=specs, x=x, seed=seed, v=v, order=order)
    if isinstance(res["out"], str):
        fail(f"{what}: returned {res['out']}")
    blocks = [build_model(s) for s in specs]  # the judge's plain run from the same seed
    xp = x.clone().requires_grad_(True)
    torch.manual_seed(seed)
    h = xp
    for k in order:
        blocks[k].train()
        h = blocks[k](h)
    (h * v).sum().backward()
    want = [xp.grad] + [p.grad for b in blocks for p in b.parameters()]
    expect_close(res["out"], h.detach(), f"{what}: the output, against the plain blocks from the same seed",
                 atol=1e-5, rtol=1e-5)
    if res["error"]:
        fail(f"{what}: backward() raised {res['error']['type']}: {res['error']['message'][:150]}")
    n1 = len(list(blocks[0].parameters()))
    names = ["x"] + [f"parameter {k} of block{1 if k < n1 else 2}" for k in range(len(want) - 1)]
    for name, g, w in zip(names, res["grads"], want):
        if g is None:
            fail(f"{what}: {name}.grad is None after backward()")
        expect_close(g, w, f"{what}: {name}.grad, against the plain blocks (each call's backward must replay the "
                           f"dropout mask of its own forward, and its gradients must reach .grad once)",
                     atol=1e-5, rtol=1e-4)


def test_two_blocks_backward(student, gen):
    """two checkpointed blocks in a row, then backward(): each block replays its own RNG state and every .grad
    equals a plain run's"""
    seeds = [int(v) for v in torch.randint(0, 2**31 - 1, (3,), generator=gen)]
    # 32 hidden units and 6 rows, as in test_same_block_twice: a wrong mask must not hide behind the ReLU's zeros
    specs = [{"arg": "x", "in": 5, "out": 6, "hidden": [32], "norm": False, "dropout": True, "seed": seeds[0]},
             {"arg": "inputs", "in": 6, "out": 3, "hidden": [32], "norm": False, "dropout": True, "seed": seeds[1]}]
    x = torch.randn(6, 5, generator=gen)
    v = torch.randn(6, 3, generator=gen)
    what = (f"h = checkpoint(block1, x); out = checkpoint(block2, h) for two blocks of widths 5-32-6 and 6-32-3 with "
            f"dropout, x of shape (6, 5) requiring grad, torch.manual_seed({seeds[2]}) before, then "
            f"(out * v).sum().backward() with every .grad None before")
    check_chain(student, specs, [0, 1], x, v, seeds[2], what)


def test_same_block_twice(student, gen):
    """one block checkpointed twice in a row (a shared layer), then backward(): each call replays the RNG state its
    own forward started from"""
    seeds = [int(v) for v in torch.randint(0, 2**31 - 1, (2,), generator=gen)]
    # 32 hidden units and 6 rows: with 8 and 4, every place where the two masks differ could fall on a unit the ReLU
    # had already zeroed (seen for one seed), and the wrong mask went unnoticed
    specs = [{"arg": "x", "in": 5, "out": 5, "hidden": [32], "norm": False, "dropout": True, "seed": seeds[0]}]
    x = torch.randn(6, 5, generator=gen)
    v = torch.randn(6, 5, generator=gen)
    what = (f"out = checkpoint(block, checkpoint(block, x)) for one block of widths 5-32-5 with dropout used twice, "
            f"x of shape (6, 5) requiring grad, torch.manual_seed({seeds[1]}) before, then (out * v).sum().backward() "
            f"with every .grad None before")
    check_chain(student, specs, [0, 0], x, v, seeds[1], what)


def test_off_default_device(student, gen):
    """on a block and x off the default device (the meta device, the grader's stand-in for a GPU), with a parameter the
    forward never uses: the output and every gradient on the block's device (None or zeros there for the unused one)"""
    spec = {"arg": "x", "in": 5, "out": 3, "hidden": [4], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x, v = torch.randn(4, 5, generator=gen), torch.randn(4, 3, generator=gen)
    what = (f"checkpoint(block, x) for a block of widths 5-4-3 with dropout and a parameter the block never uses, "
            f"block and x (4, 5) on the meta device (the grader's stand-in for a GPU: a tensor made without device= "
            f"lands on the CPU), then torch.autograd.grad of <v, output> for every parameter")
    res = student.call("run_checkpoint_off_device", spec=spec, x=x, seed=seed, v=v)
    if res["error"]:
        fail(f"{what}: raised {res['error']}; a parameter the block never uses gets None (or zeros made where the "
             f"parameter is: torch.zeros_like(p)), and every gradient is on the block's device")
    expect(res["out"] == {"device": "meta", "dtype": "torch.float32", "shape": [4, 3]},
           f"{what}: the output: expected float32 of shape (4, 3) on the block's device, got {res['out']}")
    model = build_model(spec)
    model.spare = torch.nn.Parameter(torch.ones(3))
    for k, (got, p) in enumerate(zip(res["grads"], model.parameters())):
        want = {"device": "meta", "dtype": str(p.dtype), "shape": list(p.shape)}
        expect(got == "None" or got == want, f"{what}: the gradient of parameter {k}: expected None or {want}, "
                                             f"got {got}")


def test_integer_input(student, gen):
    """a block fed with integer data (nn.Embedding on int64 token ids, which cannot require grad): same values and
    parameter gradients as a plain block(x)"""
    model_seed, seed = (int(s) for s in torch.randint(0, 2**31 - 1, (2,), generator=gen))
    ids = torch.randint(0, 12, (4, 3), generator=gen)
    v = torch.randn(4, 3, 3, generator=gen)
    what = (f"checkpoint(block, x) for block = Sequential(Embedding(12, 5), Dropout(0.3), Linear(5, 3)) and x an int64 "
            f"batch of token ids of shape (4, 3) (a batch of data: it does not, and cannot, require grad), "
            f"torch.manual_seed({seed}) before the call, then torch.autograd.grad of <v, output> for every parameter")
    res = student.call("run_checkpoint_ids", model_seed=model_seed, ids=ids, seed=seed, v=v)
    model = G.embedding_block(model_seed).train()  # the judge's plain run
    torch.manual_seed(seed)
    want = model(ids)
    grads = torch.autograd.grad((want * v).sum(), list(model.parameters()))
    if res["error"]:
        fail(f"{what}: {res['error']} (x may or may not require grad; the parameters' gradients are right either "
             f"way: differentiate with respect to x only when it needs a gradient, ctx.needs_input_grad[1])")
    expect_close(res["out"], want.detach(), f"{what}: the output, against block(x) from the same seed",
                 atol=1e-5, rtol=1e-5)
    expect(res["ids_unchanged"], f"{what}: x changed (values, dtype or requires_grad); x must be left as it was")
    for k, (g, w) in enumerate(zip(res["grads"], grads)):
        if g is None:
            fail(f"{what}: no gradient reached parameter {k}")
        expect_close(g, w, f"{what}: the gradient of parameter {k} of <v, output>, against a plain block(x)",
                     atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("x_grad", [False, True])
def test_zero_upstream_gradient(student, gen, x_grad):
    """a zero upstream gradient (<0, output>): x and every parameter the block uses get a gradient of zeros, as from
    a plain block(x), not None"""
    spec = {"arg": "x", "in": 5, "out": 3, "hidden": [4], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, _, what, _ = judge(student, spec, gen, x_grad, zero_v=True)
    what += (", then torch.autograd.grad of <v, output> with v = 0 (no gradient flows back, as through a masked loss: "
             "a plain block(x) still gives every used parameter a gradient, of zeros; only a parameter the block never "
             "uses gets None)")
    check_values_and_grads(res, want, grads, what, x_grad)


def test_second_backward_same_graph(student, gen):
    """torch.autograd.grad twice over the same graph (retain_graph=True first, as gradcheck does): the same gradients
    both times"""
    spec = {"arg": "inputs", "in": 5, "out": 3, "hidden": [6], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, grads, _, what, _ = judge(student, spec, gen, True, twice=True)
    check_values_and_grads(res, want, grads, what, True)
    second = (f"{what}, then torch.autograd.grad of <v, output> a second time over the same graph (the first with "
              f"retain_graph=True, as gradcheck does; a plain block(x) gives the same gradients again)")
    again = res["again"]
    if isinstance(again, str):
        fail(f"{second}: raised {again}; backward may run more than once, so leave ctx as forward left it")
    check_values_and_grads(dict(res, grads=again), want, grads, second, True)
