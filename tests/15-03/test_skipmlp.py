"""Hidden checks for SkipMLP: conditional layers, skip connections, droppable blocks (task 'skipmlp')."""
import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, Phase, example, given, settings, strategies as st

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_close, fail

pytestmark = pytest.mark.task("skipmlp")
f64 = torch.float64
# No shrinking: each failure message already names the configuration, and grading stays fast.
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
                phases=[Phase.explicit, Phase.generate], database=None)


def expected_shapes(in_features, widths, num_classes, norm):
    """state_dict names and shapes the exercise text prescribes."""
    keys, d = {}, in_features
    for i, w in enumerate(widths):
        if norm:
            keys[f"blocks.{i}.norm.weight"] = [d]
            keys[f"blocks.{i}.norm.bias"] = [d]
        keys[f"blocks.{i}.fc.weight"] = [w, d]
        keys[f"blocks.{i}.fc.bias"] = [w]
        if d != w:
            keys[f"blocks.{i}.proj.weight"] = [w, d]
        d = w
    keys["head.weight"] = [num_classes, d]
    keys["head.bias"] = [num_classes]
    return keys


def compare_keys(got: dict, want: dict, what: str) -> None:
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if missing or extra:
        fail(f"{what}: state_dict keys differ from the specification; missing {missing[:6]}, "
             f"unexpected {extra[:6]} (a plain Python list of blocks registers nothing; layers that are not "
             f"needed, such as norm with norm=False or proj between equal widths, must not exist)")
    for k, shape in want.items():
        if list(got[k]) != list(shape):
            fail(f"{what}: '{k}' has shape {tuple(got[k])}, expected {tuple(shape)}")


def reference_forward(state, x, n_blocks, norm, drop):
    """SkipMLP computed with torch.nn.functional from the submission's own parameters."""
    h = x.flatten(1) if x.dim() > 2 else x
    for i in range(n_blocks):
        p = f"blocks.{i}."
        shortcut = F.linear(h, state[p + "proj.weight"]) if p + "proj.weight" in state else h
        if i in drop:
            h = shortcut
            continue
        z = F.layer_norm(h, h.shape[-1:], state[p + "norm.weight"], state[p + "norm.bias"]) if norm else h
        h = shortcut + torch.relu(F.linear(z, state[p + "fc.weight"], state[p + "fc.bias"]))
    return F.linear(h, state["head.weight"], state["head.bias"])


def run_and_compare(student, in_features, widths, num_classes, norm, x, drop, seed, gen=None, grads=False,
                    no_grad=False, again=None):
    what = (f"SkipMLP({in_features}, {widths}, {num_classes}, norm={norm})"
            f"(x of shape {tuple(x.shape)}{'' if drop is None else f', drop={drop}'})"
            f"{' under torch.no_grad()' if no_grad else ''}")
    v = torch.randn(x.shape[0], num_classes, dtype=f64, generator=gen) if grads else None
    r = student.call("skipmlp_run", in_features=in_features, widths=widths, num_classes=num_classes, norm=norm,
                     x=x, drop=drop, v=v, seed=seed, no_grad=no_grad, again=again)
    compare_keys({k: list(t.shape) for k, t in r["state"].items()},
                 expected_shapes(in_features, widths, num_classes, norm), what)
    # Anchored: the reference forward below runs on the parameters the worker reports, so they must be the
    # ones the probe set (drawn in the model's own order from seed + 1): a model whose parameters ignore
    # copy_ would otherwise keep all-zero weights, and any zero output would match.
    drawn = torch.Generator().manual_seed(seed + 1)
    for k, t in r["state"].items():
        if not torch.equal(t, torch.randn(tuple(t.shape), generator=drawn, dtype=f64) * 0.5):
            fail(f"{what}: parameter '{k}' does not hold the values the check wrote into it with "
                 f"p.copy_(...) under torch.no_grad() (a parameter must be a plain nn.Parameter the model keeps)")
    state = {k: t.to(f64).requires_grad_(True) for k, t in r["state"].items()}
    want = reference_forward(state, x, len(widths), norm, set(drop or ()))
    expect_close(r["out"], want.detach(), what + ", output", atol=1e-10, rtol=1e-8)
    if again is not None:  # the same model called once more: only this call's drop counts
        if r["out_again"] is None:
            fail(f"{what}, then forward(x, drop={list(again)}) on the same model: no tensor came back")
        with torch.no_grad():
            want_again = reference_forward(state, x, len(widths), norm, set(again))
        expect_close(r["out_again"], want_again,
                     f"{what}, then forward(x, drop={list(again)}) on the same model (the clause 'for a block whose "
                     f"index is in drop, use only its shortcut' reads each call's own drop: a block dropped in an "
                     f"earlier call runs its branch again unless this call drops it)", atol=1e-10, rtol=1e-8)
    if not torch.equal(r["x_after"], x):
        fail(f"{what}: forward changed the caller's x (largest change {(r['x_after'] - x).abs().max().item():.3g}); "
             f"the clause 'The result is a new tensor: x itself stays as it was (under torch.no_grad() too)' (an "
             f"in-place add onto an identity shortcut writes into x itself)")
    if grads:
        expect(r["requires_grad"], f"{what}: the output does not require grad; nothing would train")
        ref = torch.autograd.grad(want, list(state.values()), v, allow_unused=True)
        for (k, t), g_ref in zip(state.items(), ref):
            g = r["grads"].get(k)
            if g_ref is None:  # not on the path taken (a dropped block's branch): autograd never reaches it
                if g is not None:
                    fail(f"{what}: '{k}' belongs to a branch that forward(x, drop=...) skips, yet it received a "
                         f"gradient (max |grad| {g.abs().max().item():.3g}); expected none (p.grad None): the clause "
                         f"'use only its shortcut (skip the branch)' means the branch does not run, and autograd "
                         f"records only what actually ran (a branch multiplied by 0 still runs)")
                continue
            if g is None:
                if bool((g_ref != 0).any()):
                    fail(f"{what}: no gradient reached '{k}' (is it detached, or skipped in forward?)")
                continue
            expect_close(g, g_ref, f"{what}, gradient of '{k}'", atol=1e-9, rtol=1e-7)


STRUCTURES = [(6, [6, 6], 3, True), (6, [6, 6], 3, False), (5, [8, 8, 4], 2, True), (4, [], 3, True),
              (3, [7, 3, 3, 9], 5, False)]


def resize(gen, in_features, widths):
    """The same pattern of equal and unequal widths with other sizes (2..15), drawn from gen."""
    sizes = sorted({in_features, *widths})
    new = dict(zip(sizes, (torch.randperm(14, generator=gen)[:len(sizes)] + 2).tolist()))
    return new[in_features], [new[w] for w in widths]


@pytest.mark.parametrize("cfg", STRUCTURES, ids=lambda c: f"{c[0]}-{c[1]}-norm{c[3]}")
def test_state_dict_structure(student, gen, cfg):
    """SkipMLP registers exactly the layers the configuration needs (blocks.<i>, conditional norm and proj)"""
    _, _, _, norm = cfg
    in_features, widths = resize(gen, *cfg[:2])
    num_classes = int(torch.randint(1, 11, (1,), generator=gen))
    got = student.call("skipmlp_keys", in_features=in_features, widths=widths, num_classes=num_classes, norm=norm)
    what = f"SkipMLP({in_features}, {widths}, {num_classes}, norm={norm})"
    compare_keys(got["keys"], expected_shapes(in_features, widths, num_classes, norm), what)
    if got["widths_after"] != list(widths):
        fail(f"{what} changed the caller's widths list: {list(widths)} before, {got['widths_after']} after; the clause "
             f"'holding one block per entry of widths' then fails for the next model built from that list (build "
             f"a list of your own, e.g. [in_features, *widths], instead of inserting into widths)")
    compare_keys(got["keys_again"], expected_shapes(in_features, widths, num_classes, norm),
                 f"a second {what} built from the same widths list")


@settings(max_examples=8, **SETTINGS)
# always one batch of one single feature: a block whose input has one element still adds its branch
@example(seed=11, in_features=1, widths=[1, 3], num_classes=2, norm=True, batch=1)
@given(seed=st.integers(0, 2**31 - 1), in_features=st.integers(1, 9),
       widths=st.lists(st.integers(1, 8), max_size=4), num_classes=st.integers(1, 5), norm=st.booleans(),
       batch=st.integers(1, 4))
def test_forward_matches_functional_reference(student, seed, in_features, widths, num_classes, norm, batch):
    """SkipMLP.forward equals shortcut + relu(fc(norm(x))) per block, then head (random configurations)"""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, in_features, generator=gen, dtype=f64)
    run_and_compare(student, in_features, widths, num_classes, norm, x, None, seed % 100000)


def test_image_batches_are_flattened(student, gen):
    """SkipMLP flattens (N, C, H, W) image batches before the first block"""
    x = torch.rand(3, 1, 28, 28, generator=gen, dtype=f64)
    run_and_compare(student, 784, [16, 16, 8], 10, True, x, None, int(torch.randint(0, 10**6, (1,), generator=gen)))
    x = torch.randn(2, 3, 2, 2, generator=gen, dtype=f64)
    run_and_compare(student, 12, [12], 4, False, x, None, 7)
    # a batch of ONE image: only the batch dimension of size 1 stays (x.squeeze() removes it too)
    x = torch.rand(1, 1, 5, 5, generator=gen, dtype=f64)
    try:
        run_and_compare(student, 25, [6, 6], 3, True, x, None, int(torch.randint(0, 10**6, (1,), generator=gen)))
    except StudentError as e:
        fail(f"SkipMLP(25, [6, 6], 3)(x of shape (1, 1, 5, 5)), a batch of one image, expected an output of shape "
             f"(1, 3): {e} (the clause 'x is always a batch: a single example comes as (1, in_features)': flatten "
             f"everything but the batch dimension, x.flatten(1), also when it is 1; x.squeeze() drops it too)")


def test_three_dim_batches_are_flattened(student, gen):
    """SkipMLP flattens any input with more than 2 dimensions, e.g. (N, L, F) and (N, C, D, H, W)"""
    x = torch.randn(3, 2, 4, generator=gen, dtype=f64)
    run_and_compare(student, 8, [8, 5], 3, True, x, None, int(torch.randint(0, 10**6, (1,), generator=gen)))
    # five dimensions (a batch of volumes): "more than 2", not "3 or 4"
    x = torch.randn(2, 2, 1, 3, 2, generator=gen, dtype=f64)
    try:
        run_and_compare(student, 12, [5], 3, True, x, None, int(torch.randint(0, 10**6, (1,), generator=gen)))
    except StudentError as e:
        fail(f"SkipMLP(12, [5], 3)(x of shape (2, 2, 1, 3, 2)), a 5-D batch, expected an output of shape (2, 3): {e} "
             f"(the clause 'if x has more than 2 dimensions ..., flatten everything but the batch dimension first': "
             f"any number of dimensions above 2, e.g. x.flatten(1) whenever x.dim() > 2)")


def test_non_contiguous_image_batch(student, gen):
    """SkipMLP flattens a non-contiguous (N, C, H, W) batch (e.g. a channels-last view) correctly"""
    x = torch.randn(2, 4, 3, 2, generator=gen, dtype=f64).permute(0, 3, 1, 2)  # (2, 2, 4, 3), non-contiguous
    run_and_compare(student, 24, [10], 3, False, x, None, int(torch.randint(0, 10**6, (1,), generator=gen)))


def test_empty_image_batch(student, gen):
    """SkipMLP gives (0, num_classes) for an empty (0, C, H, W) batch (flattened to (0, C*H*W))"""
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    run_and_compare(student, 12, [5], 3, False, torch.randn(0, 3, 2, 2, dtype=f64), None, seed)


def test_drop_indices_no_block_has(student, gen):
    """forward(x, drop=[-1, len(widths)]) drops nothing: no block has either index"""
    x = torch.randn(3, 5, generator=gen, dtype=f64)
    run_and_compare(student, 5, [5, 4], 3, True, x, [-1, 2], int(torch.randint(0, 10**6, (1,), generator=gen)))


@settings(max_examples=8, **SETTINGS)
@given(seed=st.integers(0, 2**31 - 1), widths=st.lists(st.integers(2, 6), min_size=1, max_size=4),
       norm=st.booleans(), data=st.data())
def test_dropped_blocks_use_only_the_shortcut(student, seed, widths, norm, data):
    """forward(x, drop=...) applies only the shortcut (identity or proj) of every dropped block"""
    drop = data.draw(st.lists(st.integers(0, len(widths) - 1), unique=True), label="drop")
    # and indices no block has, beyond test_drop_indices_no_block_has's -1 and len(widths): -2 ... -(n+1) and
    # n + 1 drop nothing either (a mask skip[i] = True for i < n, or i % n, wraps them onto a real block)
    n = len(widths)
    drop = drop + data.draw(st.lists(st.sampled_from([-1, -2, -n, -n - 1, n, n + 1, n + 7]), unique=True,
                                     min_size=1, max_size=2), label="indices no block has")
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(3, 5, generator=gen, dtype=f64)
    # then the same model with drop=(): a drop kept on the blocks across calls shows there
    run_and_compare(student, 5, widths, 3, norm, x, drop, seed % 100000, again=[])


# under no_grad (inference: the notebook's accuracy()), where an in-place add onto an identity shortcut is
# allowed by autograd and writes into the caller's batch; block 0 keeps the width, so its shortcut is x itself
def test_forward_leaves_the_input_unchanged(student, gen):
    """Under torch.no_grad() forward still equals shortcut + relu(fc(norm(x))) and leaves the caller's x as it was"""
    x = torch.randn(3, 6, generator=gen, dtype=f64)
    run_and_compare(student, 6, [6, 4, 4], 3, True, x, None, int(torch.randint(0, 10**6, (1,), generator=gen)),
                    no_grad=True)


@pytest.mark.parametrize("cfg", [(5, [5, 7, 7], 3, True, []), (4, [6, 6, 3], 2, False, [1]),
                                 (6, [6, 6], 4, True, [0, 1])], ids=["all", "drop1", "dropall"])
def test_gradients_follow_the_path_taken(student, gen, cfg):
    """Parameter gradients of SkipMLP match autograd through the reference computation"""
    in_features, widths, num_classes, norm, drop = cfg
    x = torch.randn(4, in_features, generator=gen, dtype=f64)
    run_and_compare(student, in_features, widths, num_classes, norm, x, drop,
                    int(torch.randint(0, 10**6, (1,), generator=gen)), gen=gen, grads=True,
                    again=[] if drop else None)
