"""Hidden checks of pack_compressed / unpack_compressed / compressed_saved_tensors (exercise 3): the judge
installs the student's hooks inside its own saved_tensors_hooks to count the bytes each pack keeps."""
import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_equal, fail
from course.judge.strategies import tensors

pytestmark = pytest.mark.task("compress")


def exact_grads(kind, seed, dtype, x):
    """The judge's gradients of the same net with nothing compressed (same weights as the probe's make_net)."""
    torch.manual_seed(seed)
    if kind == "mlp":
        net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 64), torch.nn.ReLU(),
                                  torch.nn.Linear(64, 10))
    else:
        net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.Tanh(), torch.nn.MaxPool2d(2),
                                  torch.nn.Flatten(), torch.nn.Linear(4 * 14 * 14, 10))
    net = net.to(dtype)
    loss = net(x.to(dtype)).square().mean()
    return torch.autograd.grad(loss, list(net.parameters()))


def check_grads(got, want, what, tol=0.02):
    expect(isinstance(got, list) and len(got) == len(want), f"{what}: expected {len(want)} gradients")
    for k, (g, w) in enumerate(zip(got, want)):
        expect(g.dtype == w.dtype, f"{what}: gradient {k} has dtype {g.dtype}, expected {w.dtype}")
        err = ((g.double() - w.double()).norm() / w.double().norm().clamp_min(1e-30)).item()
        expect(err <= tol, f"{what}: gradient {k} (shape {tuple(w.shape)}) is {100 * err:.2f} % away from the "
                           f"uncompressed one in norm; at most {100 * tol:.0f} % allowed")


def _seed(gen):
    return int(torch.randint(0, 2**31 - 1, (1,), generator=gen))


def check_each_float_packed(res, what):
    """Every float32 / float64 tensor autograd saved, taken alone: its packed object holds its bfloat16 copy
    (2 bytes an element) and nothing that shares t's memory (a view of t, even an empty slice); every tensor of
    another dtype is kept as it is (its own bytes)."""
    for dtype, shape, param, nbytes, holds in res["floats"]:
        kind = "a parameter (a leaf that requires grad, saved by the operation itself)" if param else "an activation"
        of = f"{kind}, {dtype.replace('torch.', '')} of shape {tuple(shape)}"
        expect(not holds, f"{what}: pack_compressed(t) for {of} returned an object that still shares t's memory (a "
                          f"view of t, even an empty one such as t.flatten()[:0], keeps all of t alive); what it "
                          f"returns holds no tensor other than the bfloat16 copy (no reference to t)")
        want = 2 * int(torch.Size(shape).numel())
        expect(nbytes == want, f"{what}: pack_compressed(t) for {of} holds {nbytes} bytes of tensors, expected "
                               f"{want} (its bfloat16 copy): pack_compressed stores every float32 or float64 tensor "
                               f"as bfloat16, parameters included")
    for dtype, shape, raw, nbytes in res.get("others", []):
        expect(nbytes == raw, f"{what}: pack_compressed(t) for a {dtype.replace('torch.', '')} t of shape "
                              f"{tuple(shape)} (such as max-pooling's indices) holds {nbytes} bytes of tensors, not "
                              f"t's {raw}: tensors of any other dtype than float32 and float64 are kept as they are")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bytes_shrink(student, gen, dtype):
    """what the graph keeps is the bfloat16 copy only: a half (float32) or a quarter (float64) of the bytes"""
    seed, x = _seed(gen), torch.rand(16, 1, 28, 28, generator=gen)
    res = student.call("hooked_grads", kind="mlp", seed=seed, dtype_name=dtype, x=x)
    what = f"an MLP 784-64-10 in {dtype} on a batch of 16 with your hooks installed"
    expect(res["n"] > 0, f"{what}: nothing was saved")
    check_each_float_packed(res, what)
    ratio = res["packed_bytes"] / res["raw_bytes"]
    limit = {"float32": 0.5, "float64": 0.25}[dtype]
    expect(ratio <= limit + 1e-9, f"{what}: the packed objects hold {res['packed_bytes']} bytes of tensors for "
                                  f"{res['raw_bytes']} bytes saved ({ratio:.2f}); bfloat16 copies alone would "
                                  f"hold {limit:.2f} of them")
    expect(ratio >= limit - 1e-9, f"{what}: the packed objects hold only {res['packed_bytes']} bytes of tensors "
                                  f"for {res['raw_bytes']} bytes saved; the bfloat16 copy should be all of it")
    expect(res["packed_bytes_after"] == res["packed_bytes"],
           f"{what}: after backward unpacked them, the packed objects hold {res['packed_bytes_after']} bytes of "
           f"tensors, {res['packed_bytes']} when packed; unpack_compressed must leave them as they were (what "
           f"pack_compressed returns holds no tensor other than the bfloat16 copy, also once a retained graph has "
           f"been through backward)")
    bad = [u for u in res["unpacked"] if u[0] != u[1] or u[2] != u[3]]
    if bad:
        fail(f"{what}: unpack_compressed returned dtype {bad[0][1]} and shape {tuple(bad[0][3])} for a tensor "
             f"saved as {bad[0][0]} of shape {tuple(bad[0][2])}")
    check_grads(res["grads"], exact_grads("mlp", seed, getattr(torch, dtype), x), what)


@settings(max_examples=8, deadline=None)
@given(t=tensors(dtype=torch.float32))
def test_roundtrip_any_tensor(student, t):
    """a float32 tensor of any shape and layout comes back in float32 within bfloat16 rounding"""
    of = f"float32 t of shape {tuple(t.shape)}, strides {t.stride()}"
    what = f"unpack_compressed(pack_compressed(t)) for {of}"
    res = student.call("pack_roundtrip", t=t)
    back = res["back"]
    if not isinstance(back, torch.Tensor):
        fail(f"{what}: {back}")
    expect_equal(back.dtype, torch.float32, f"the dtype of {what}")
    expect_close(back, t.to(torch.bfloat16).float(), what, atol=0, rtol=0)
    expect(not res["holds_input"], f"pack_compressed(t) for {of}: what it returns still holds t")
    expect(res["input_unchanged"], f"pack_compressed(t): t changed ({of})")
    expect(res["bytes"] == t.numel() * 2, f"pack_compressed(t) for {of}: holds {res['bytes']} bytes of "
                                           f"tensors, expected {t.numel() * 2} (the bfloat16 copy)")


def special_values(gen, dtype):
    """A (2, 24) tensor of the values a cast to bfloat16 has rules for, then transposed (non-contiguous): +-inf,
    NaN, +-0, float32 subnormals, bfloat16's largest finite values, ties halfway between two bfloat16 values (round
    to even) and just off them, and random values over 70 orders of magnitude. Every value is a float32 one (so a
    float64 t rounds the same whether cast directly or through float32)."""
    inf, nan = float("inf"), float("nan")
    big = torch.finfo(torch.bfloat16).max
    fixed = torch.tensor([inf, -inf, nan, 0.0, -0.0, 1e-40, -3e-42, 2.0 ** -133, 1.1754944e-38, big, -big,
                          1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, -(1 + 2.0 ** -8), 2.0 ** 100 * (1 + 2.0 ** -8),
                          1 + 2.0 ** -8 + 2.0 ** -20, 65504.0, -2.0 ** -24], dtype=torch.float32)
    rand = torch.randn(48 - len(fixed), generator=gen) * 10.0 ** (torch.rand(48 - len(fixed), generator=gen) * 70 - 35)
    t = torch.cat([fixed, rand.float()])[torch.randperm(48, generator=gen)]
    return t.reshape(24, 2).to(dtype).t()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_roundtrip_special_values(student, gen, dtype):
    """+-inf, NaN, +-0, subnormals, bfloat16's largest values and rounding ties come back as their bfloat16 rounding
    (float32 and float64)"""
    t = special_values(gen, dtype)
    what = (f"unpack_compressed(pack_compressed(t)) for a {dtype} t of shape (2, 24) (transposed) holding inf, -inf, "
            f"nan, 0, -0, subnormals, +-{torch.finfo(torch.bfloat16).max:.4e} (bfloat16's largest), ties such as "
            f"1 + 2**-8 and random values from 1e-35 to 1e35")
    res = student.call("pack_roundtrip", t=t)
    back, want = res["back"], t.to(torch.bfloat16).to(dtype)
    if not isinstance(back, torch.Tensor):
        fail(f"{what}: {back}")
    expect_equal(back.dtype, dtype, f"the dtype of {what}")
    expect_equal(tuple(back.shape), (2, 24), f"the shape of {what}")
    wrong = ~((back == want) | (back.isnan() & want.isnan())) | (back.signbit() != want.signbit())
    if wrong.any():
        i = wrong.nonzero()[0].tolist()
        fail(f"{what}: at {tuple(i)}, t = {t[tuple(i)].item()!r} came back as {back[tuple(i)].item()!r}; its bfloat16 "
             f"rounding, t.to(torch.bfloat16), is {want[tuple(i)].item()!r} ({int(wrong.sum())} of 48 values differ)")
    expect(res["input_unchanged"], f"pack_compressed(t): t changed ({what})")
    expect(res["bytes"] == t.numel() * 2, f"pack_compressed(t) for {what}: holds {res['bytes']} bytes of tensors, "
                                          f"expected {t.numel() * 2} (the bfloat16 copy)")


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool, torch.float16, torch.int32, torch.int16, torch.complex64])
def test_other_dtypes_kept(student, gen, dtype):
    """tensors of other dtypes come back exactly, in their own dtype (int32, int16 and complex64 too, not only
    the dtypes the text names)"""
    if dtype.is_complex:
        t = torch.randn(5, 7, generator=gen, dtype=dtype) * 1000
    else:
        t = (torch.randn(5, 7, generator=gen) * 1000).to(dtype)
    t[0, 0] = 1 if dtype == torch.bool else 2049  # 2049 is not representable in bfloat16
    what = f"unpack_compressed(pack_compressed(t)) for {dtype} t of shape (5, 7)"
    back = student.call("pack_roundtrip", t=t)["back"]
    if not isinstance(back, torch.Tensor):
        fail(f"{what}: {back}")
    expect_equal(back.dtype, dtype, f"the dtype of {what}")
    expect_equal(back, t, what)


def test_pool_indices(student, gen):
    """a net with max-pooling (int64 indices saved) gets the right gradients through the hooks, every float tensor
    it saves, the conv's weight (a parameter) included, is packed as its bfloat16 copy alone, and the indices are
    kept as they are"""
    seed, x = _seed(gen), torch.rand(4, 1, 28, 28, generator=gen)
    res = student.call("hooked_grads", kind="pool", seed=seed, dtype_name="float32", x=x)
    what = "a conv-tanh-maxpool-linear net in float32 with your hooks installed"
    check_each_float_packed(res, what)
    check_grads(res["grads"], exact_grads("pool", seed, torch.float32, x), what)


@pytest.mark.parametrize("kind", ["mlp", "pool"])
def test_context_manager(student, gen, kind):
    """compressed_saved_tensors() installs the two hooks, and removes them when the block ends; a second backward
    over the retained graph unpacks the same packed objects again and gets the same gradients"""
    seed, x = _seed(gen), torch.rand(8, 1, 28, 28, generator=gen)
    res = student.call("context_grads", kind=kind, seed=seed, dtype_name="float32", x=x)
    what = f"with compressed_saved_tensors(): a {kind} net in float32"
    inside = res["inside"]
    expect(inside, f"{what}: no saved-tensor hooks were installed inside the block")
    expect(inside["bytes"] == 64 * 64 * 2, f"{what}: the hooks installed inside the block packed a float32 "
                                           f"(64, 64) tensor into {inside['bytes']} bytes, not {64 * 64 * 2}")
    expect(inside["dtype"] == "torch.float32", f"{what}: the installed unpack hook returned {inside['dtype']}")
    expect(not res["left_after"], f"{what}: saved-tensor hooks are still installed after the block")
    want = exact_grads(kind, seed, torch.float32, x)
    check_grads(res["grads"], want, what)
    second = (f"{what}, then a second torch.autograd.grad over the same graph (the first with retain_graph=True, so "
              f"backward unpacks every saved tensor again)")
    if isinstance(res["again"], str):
        fail(f"{second}: raised {res['again']}; expected the same gradients, since unpack_compressed(packed) "
             f"returns the tensor with its original shape, dtype and device each time it is called (leave the "
             f"packed object as it is)")
    check_grads(res["again"], want, second)


def test_exception_in_block(student):
    """no hooks are left after an exception inside the block, and the exception goes through"""
    res = student.call("context_raises")
    expect(res["inside"], "with compressed_saved_tensors(): no hooks were installed inside the block")
    expect(res["error"]["type"] == "KeyError", f"an exception raised inside compressed_saved_tensors() came out "
                                               f"as {res['error']['type'] or 'nothing'}, not the KeyError raised")
    expect(not res["left_after"], "after a KeyError inside compressed_saved_tensors(), saved-tensor hooks are "
                                  "still installed")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_roundtrip_keeps_device(student, gen, dtype):
    """unpack_compressed(pack_compressed(t)) is on t's device: run on a tensor on the meta device, the grader's
    stand-in for a GPU (a tensor made without device= lands on the CPU)"""
    shape = [int(v) for v in torch.randint(1, 5, (2,), generator=gen)]
    res = student.call("pack_roundtrip_meta", shape=shape, dtype_name=dtype)
    what = f"unpack_compressed(pack_compressed(t)) for a {dtype} t of shape {tuple(shape)} on the meta device"
    expect("error" not in res, f"{what} raised {res.get('error')}: keep the device (t.to(torch.bfloat16) and "
                               f"packed.to(dtype) stay where t is; torch.empty(...) without device= does not)")
    expect(res["device"] == "meta" and res["dtype"] == f"torch.{dtype}" and res["shape"] == shape,
           f"{what}: expected a {dtype} tensor of shape {shape} on meta, got {res['dtype']} of shape {res['shape']} "
           f"on {res['device']}")


@pytest.mark.parametrize("dtype", [torch.float8_e4m3fn, torch.float8_e5m2, torch.bfloat16])
def test_other_float_dtypes_kept_as_they_are(student, gen, dtype):
    """floating-point dtypes other than float32 and float64 (float8, bfloat16) are kept as they are: what
    pack_compressed returns holds t's own bytes in t's dtype, and t's values come back exactly"""
    t = (torch.randn(4, 6, generator=gen) * 8).to(dtype)
    what = f"pack_compressed(t) for a {dtype} t of shape (4, 6)"
    res = student.call("pack_roundtrip", t=t)
    back = res["back"]
    if not isinstance(back, torch.Tensor):
        fail(f"unpack_compressed(pack_compressed(t)) for a {dtype} t of shape (4, 6): {back}")
    expect_equal(back.dtype, dtype, f"the dtype of unpack_compressed(pack_compressed(t)) for a {dtype} t")
    expect(back.shape == t.shape and torch.equal(back.view(torch.uint8 if dtype.itemsize == 1 else torch.int16),
                                                 t.view(torch.uint8 if dtype.itemsize == 1 else torch.int16)),
           f"unpack_compressed(pack_compressed(t)) for a {dtype} t of shape (4, 6): not t's values exactly")
    raw = t.numel() * t.element_size()
    expect(res["bytes"] == raw and res["dtypes"] == [str(dtype)],
           f"{what}: what it returns holds {res['bytes']} bytes of tensors of dtypes {res['dtypes']}, expected t "
           f"itself ({raw} bytes of {dtype}): Tensors of any other dtype (integer indices, bool masks, float16) are "
           f"kept as they are; only float32 and float64 are stored as bfloat16 (a float8 tensor copied to bfloat16 "
           f"takes twice its bytes)")


def test_interrupt_in_block(student):
    """no hooks are left after a KeyboardInterrupt (not an Exception) inside the block, and it goes through"""
    res = student.call("context_raises", interrupt=True)
    expect(res["inside"], "with compressed_saved_tensors(): no hooks were installed inside the block")
    expect(res["error"]["type"] == "KeyboardInterrupt", f"a KeyboardInterrupt raised inside compressed_saved_tensors() "
                                                        f"came out as {res['error']['type'] or 'nothing'}")
    expect(not res["left_after"], "after a KeyboardInterrupt inside compressed_saved_tensors() (a BaseException, not "
                                  "an Exception: the user stopping a long forward), saved-tensor hooks are still "
                                  "installed; when the block ends, also by an exception, no hooks of yours are left "
                                  "(remove them in finally, or use saved_tensors_hooks itself as the context manager)")
