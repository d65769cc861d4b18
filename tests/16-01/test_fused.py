"""Hidden checks of gelu_dropout, the fused operator (exercise 4): values and gradients against the judge's own
unfused composition F.gelu(x, approximate='tanh') * (u >= p) / (1 - p) with the same draw, what autograd saves
(recorded by saved-tensor hooks), the operator's layout and fake kernel, and the meta device as a GPU stand-in."""
import pytest
import torch
import torch.nn.functional as F

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.probelib import relayout

pytestmark = pytest.mark.task("fused")
f64 = torch.float64
FN = "gelu_dropout"
TOL = {torch.float64: {"atol": 1e-11, "rtol": 1e-9}, torch.float32: {"atol": 1e-5, "rtol": 1e-4}}


def seed_from(gen):
    return int(torch.randint(0, 2**31 - 1, (1,), generator=gen))


def reference(x, p, seed, v=None, after=4):
    """The unfused composition with the notebook's draw: output, gradient of <v, output>, the next draws."""
    g = torch.Generator().manual_seed(seed)
    keep = torch.rand(x.shape, generator=g, dtype=x.dtype) >= p if p > 0 else torch.ones(x.shape, dtype=torch.bool)
    xr = x.clone().requires_grad_(True)
    out = F.gelu(xr, approximate="tanh") * keep / (1 - p)
    grad = torch.autograd.grad(out, xr, v)[0] if v is not None else None
    return out.detach(), grad, torch.rand(after, generator=g, dtype=f64), keep


def run(student, what, **kw):
    res = student.call("fused_run", **kw)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    return res


CASES = [((6, 7), torch.float64, 0.3, "contiguous"), ((5, 4), torch.float32, 0.5, "contiguous"),
         ((2, 3, 4), torch.float64, 0.9, "contiguous"), ((17,), torch.float32, 0.1, "contiguous"),
         ((), torch.float64, 0.4, "contiguous"), ((0, 3), torch.float32, 0.5, "contiguous"),
         ((5, 6), torch.float64, 0.3, "transposed")]


@pytest.mark.parametrize("shape,dtype,p,layout", CASES,
                         ids=[f"{s}-{str(d)[6:]}-p{p}" + ("" if lay == "contiguous" else f"-{lay}") for s, d, p, lay in CASES])
def test_matches_unfused(student, gen, shape, dtype, p, layout):
    """gelu_dropout(x, p, generator) equals the unfused composition with the same draw (u = torch.rand(x.shape,
    generator, dtype=x.dtype), kept where u >= p, whatever x's memory layout), in value, dtype and gradient, and
    draws once"""
    seed = seed_from(gen)
    x = (2.5 * torch.randn(shape, generator=gen, dtype=f64)).to(dtype)
    v = torch.randn(shape, generator=gen, dtype=f64).to(dtype)
    what = f"{FN}(x, {p}, generator) for {'' if layout == 'contiguous' else layout + ' '}{dtype} x of shape {tuple(shape)}"
    res = run(student, what, x=x, p=p, seed=seed, v=v, layout=layout)
    out, grad, nxt, _ = reference(x, p, seed, v)
    expect_equal(res["out"].dtype, dtype, f"the dtype of {what}")
    expect_close(res["out"], out, what + " against F.gelu(x, approximate='tanh') * (u >= p) / (1 - p)", **TOL[dtype])
    expect_close(res["grad"], grad, f"the gradient of <v, {what}>", **TOL[dtype])
    expect_close(res["next"], nxt, f"the generator's next draws after {what} (one draw of x.shape in x's dtype)",
                 atol=0, rtol=0)
    expect_operator_result(res, what)


OP_NODE = "c1601_gelu_dropout_op"


def expect_operator_result(res, what):
    """The output comes from the operator c1601::gelu_dropout_op: its backward node is in the output's autograd
    graph (a composition of F.gelu, * keep and / (1 - p) written in gelu_dropout gives the same numbers, not one
    operator)."""
    nodes = res.get("nodes") or []
    expect(any(OP_NODE in str(n) for n in nodes), f"{what}: the result is not the operator's: its autograd graph "
           f"{nodes[:6]} has no node of c1601::gelu_dropout_op (gelu_dropout must return gelu_dropout_op(x, keep, p), "
           f"one operator, not compute F.gelu(x) * keep / (1 - p) itself)")


def test_tiny_p_draws(student, gen):
    """for any p in [0, 1) other than 0, however small (1e-7 to 1e-12, and the smallest positive float, 5e-324), it
    draws u once: only p == 0 draws nothing"""
    x = 2.5 * torch.randn(4, 5, generator=gen, dtype=f64)
    v = torch.randn(4, 5, generator=gen, dtype=f64)
    # a tolerance around 0 (abs(p) < eps, p < 1e-12, ...) draws nothing for some p > 0: the smallest positive
    # double is below every such threshold
    for p in (10.0 ** -int(torch.randint(7, 13, (), generator=gen)), 5e-324):
        seed = seed_from(gen)
        what = f"{FN}(x, {p!r}, generator) for float64 x (4, 5)"
        res = run(student, what, x=x, p=p, seed=seed, v=v)
        out, grad, nxt, _ = reference(x, p, seed, v)
        expect_close(res["out"], out, what + " against F.gelu(x, approximate='tanh') * (u >= p) / (1 - p)", **TOL[f64])
        expect_close(res["grad"], grad, f"the gradient of <v, {what}>", **TOL[f64])
        expect_close(res["next"], nxt, f"the generator's next draws after {what} (p > 0, however small, draws u once: "
                     f"only p == 0 exactly draws nothing; no tolerance around 0)", atol=0, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_p_zero(student, gen, dtype):
    """with p == 0 it returns gelu(x), with gelu's gradient, and draws nothing"""
    seed = seed_from(gen)
    x = (3 * torch.randn(4, 6, generator=gen, dtype=f64)).to(dtype)
    v = torch.randn(4, 6, generator=gen, dtype=f64).to(dtype)
    what = f"{FN}(x, 0.0, generator) for {dtype} x (4, 6)"
    res = run(student, what, x=x, p=0.0, seed=seed, v=v)
    out, grad, nxt, _ = reference(x, 0.0, seed, v)
    expect_close(res["out"], out, what + " (gelu(x))", **TOL[dtype])
    expect_close(res["grad"], grad, f"the gradient of <v, {what}>", **TOL[dtype])
    expect_close(res["next"], nxt, f"the generator's next draws after {what} (it must draw nothing)", atol=0, rtol=0)
    expect_operator_result(res, what)


def test_default_generator(student, gen):
    """without a generator it draws from PyTorch's default generator: after torch.manual_seed(s), gelu_dropout(x, p)
    is the composition with u from a generator seeded s, and the default generator is left one draw further; at
    p == 0 it draws nothing from it either"""
    seed, p = seed_from(gen), 0.35
    x = 2.5 * torch.randn(5, 6, generator=gen, dtype=torch.float32)
    v = torch.randn(5, 6, generator=gen, dtype=torch.float32)
    what = f"{FN}(x, {p}) without a generator, after torch.manual_seed({seed}), for float32 x (5, 6)"
    res = student.call("fused_default_generator", x=x, p=p, seed=seed, v=v)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    out, grad, nxt, _ = reference(x, p, seed, v)
    expect_close(res["out"], out, what + " against the composition with u = torch.rand(x.shape, dtype=x.dtype) drawn "
                 "from the default generator (generator=None: the one torch.manual_seed sets)", **TOL[torch.float32])
    expect_close(res["grad"], grad, f"the gradient of <v, {what}>", **TOL[torch.float32])
    expect_close(res["next"], nxt, f"the default generator's next draws after {what} (one draw of x.shape from it)",
                 atol=0, rtol=0)
    what = f"{FN}(x, 0.0) without a generator, after torch.manual_seed({seed}), for float32 x (5, 6)"
    res = student.call("fused_default_generator", x=x, p=0.0, seed=seed, v=v)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    out, grad, nxt, _ = reference(x, 0.0, seed, v)
    expect_close(res["out"], out, what + " (gelu(x))", **TOL[torch.float32])
    expect_close(res["next"], nxt, f"the default generator's next draws after {what} (with p == 0 it draws nothing, "
                 f"from a given generator or from the default one: the text's 'the generator's state is left alone')",
                 atol=0, rtol=0)


def test_p_kept_per_call(student, gen):
    """the autograd formula uses each call's own p: two outputs with different p, built before one backward pass,
    each get the gradient of their own p"""
    first = round(float(torch.empty(()).uniform_(0.1, 0.4, generator=gen)), 3)
    ps, seeds = [first, round(first + 0.4, 3)], [seed_from(gen), seed_from(gen)]
    x = 2.5 * torch.randn(5, 6, generator=gen, dtype=f64)
    v = torch.randn(5, 6, generator=gen, dtype=f64)
    what = f"the gradients of {FN}(x, {ps[0]}, generator) and {FN}(x, {ps[1]}, generator), both built before one backward pass"
    res = student.call("fused_two_ps", x=x, ps=ps, seeds=seeds, v=v)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    for p, seed, got in zip(ps, seeds, res["grads"]):
        expect_close(got, reference(x, p, seed, v)[1], f"{what}: the one with p = {p} (keep p on ctx, not in a "
                     f"variable the next call overwrites)", **TOL[f64])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_saves_x_and_boolean_mask(student, gen, dtype):
    """for the backward it saves x itself (its memory, for a transposed x too: not gelu'(x) worked out in the forward,
    not a copy) and the boolean keep mask, and nothing else (no output, no float mask)"""
    seed = seed_from(gen)
    layout = "contiguous" if dtype == torch.float32 else "transposed"
    x = torch.randn(8, 16, generator=gen, dtype=f64).to(dtype)
    v = torch.randn(8, 16, generator=gen, dtype=f64).to(dtype)
    what = f"what autograd saved for {FN}(x, 0.25, generator) with {layout} {dtype} x (8, 16)"
    res = run(student, what, x=x, p=0.25, seed=seed, v=v, layout=layout)
    saved = {s["storage"]: s for s in res["saved"]}.values()  # a tensor saved twice counts once
    total, bound = sum(s["bytes"] for s in saved), x.numel() * (x.element_size() + 1)
    kinds = sorted((s["dtype"], tuple(s["shape"])) for s in saved)
    expect(total <= bound, f"{what}: {total} bytes ({kinds}); x and a boolean mask take {bound}")
    expect(("torch.bool", (8, 16)) in kinds, f"{what}: no boolean (8, 16) mask among the saved tensors {kinds}")
    expect((str(dtype), (8, 16)) in kinds, f"{what}: x is not among the saved tensors {kinds}")
    expect(any(s["dtype"] == str(dtype) and tuple(s["shape"]) == (8, 16) and torch.equal(s["value"], x) for s in saved),
           f"{what}: the saved {dtype} (8, 16) tensor is not x (its values differ from x's): save x itself and "
           f"recompute gelu'(x) from it in the backward")
    expect(any(s["dtype"] == str(dtype) and s["storage"] == res["x_storage"] for s in saved),
           f"{what}: the saved {dtype} (8, 16) tensor has x's values but not x's memory: a copy of x (x.contiguous() of "
           f"a transposed x, x.clone(), ...) costs a tensor of x's size until the backward; save x itself")
    _, grad, _, _ = reference(x, 0.25, seed, v)
    expect_close(res["grad"], grad, f"the gradient of <v, {FN}(x, 0.25, generator)>", **TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_draw_equal_to_p_is_kept(student, gen, dtype):
    """an element whose draw u equals p exactly is kept (u >= p, not u > p)"""
    seed = seed_from(gen)
    x = (2 * torch.randn(6, 5, generator=gen, dtype=f64)).to(dtype)
    v = torch.randn(6, 5, generator=gen, dtype=f64).to(dtype)
    u = torch.rand(6, 5, generator=torch.Generator().manual_seed(seed), dtype=dtype)
    p = float(u.flatten().sort().values[15])  # one of the draws, in (0, 1): exactly representable as a float
    what = f"{FN}(x, p, generator) for {dtype} x (6, 5) with p = {p!r}, the value of one of the draws"
    res = run(student, what, x=x, p=p, seed=seed, v=v)
    out, grad, _, keep = reference(x, p, seed, v)
    expect_close(res["out"], out, what + f" (that element has u == p: it is kept, {int(keep.sum())} kept in all)",
                 **TOL[dtype])
    expect_close(res["grad"], grad, f"the gradient of <v, {what}>", **TOL[dtype])


def empty_like_meta(meta):
    t = torch.empty_like(torch.empty_strided(meta["shape"], meta["stride"], dtype=getattr(torch, meta["dtype"][6:])))
    return {"type": "Tensor", "shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype),
            "device": meta["device"]}


def strides_that_matter(meta):
    """Metadata with the strides that matter: a dimension of size 1 (or any, in an empty tensor) has no stride."""
    if meta.get("type") != "Tensor":
        return meta
    empty = 0 in meta["shape"]
    return dict(meta, stride=[None if empty or n == 1 else s for n, s in zip(meta["shape"], meta["stride"])])


# (x's layout, shape, keep's layout: None is x's; gelu_dropout passes a contiguous mask whatever x's layout; x's dtype:
# both, so that a fake kernel with a fixed dtype meets the other one)
f32 = torch.float32
LAYOUTS = [("contiguous", (2, 3, 4, 5), None, f32), ("transposed", (2, 3, 4, 5), None, f64),
           ("strided", (2, 3, 4, 5), None, f32), ("channels_last", (2, 3, 4, 5), None, f64),
           ("contiguous", (), None, f32), ("contiguous", (1, 1), None, f64),
           ("transposed", (3, 4, 5), "contiguous", f32), ("channels_last", (2, 3, 4, 5), "contiguous", f32)]


@pytest.mark.parametrize("layout,shape,keep_layout,dtype", LAYOUTS,
                         ids=[f"{a}-{b}" + (f"-keep-{k}" if k else "") + f"-{str(d)[6:]}" for a, b, k, d in LAYOUTS])
def test_operator_layout_and_fake(student, gen, layout, shape, keep_layout, dtype):
    """torch.ops.c1601.gelu_dropout_op(x, keep, p) is gelu(x) * keep / (1 - p) in x's dtype as a new tensor laid out
    like torch.empty_like(x) (whatever keep's layout), x and keep left as they were, and its fake kernel gives the
    same metadata, as a new tensor"""
    p = 0.4
    x = (2 * torch.randn(shape, generator=gen, dtype=f64)).to(dtype)
    keep = torch.rand(shape, generator=gen) >= p
    what = (f"torch.ops.c1601.gelu_dropout_op(x, keep, {p}) for {layout} {dtype} x and "
            f"{keep_layout + ' ' if keep_layout else ''}keep {shape}")
    res = student.call("fused_op", x=x, keep=keep, p=p, layout=layout, keep_layout=keep_layout)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], F.gelu(x.to(f64), approximate="tanh") * keep / (1 - p), what, **TOL[dtype])
    expect(not res["changed"], f"{what} wrote into its argument(s) {res['changed']}: the operator is declared "
           f"functional (mutates_args=()), so it must leave x and keep as they were and return a new tensor")
    xin = relayout(x, layout)  # laid out by the judge, not read from the worker's reply
    expected = empty_like_meta({"shape": list(xin.shape), "stride": list(xin.stride()), "dtype": str(xin.dtype),
                                "device": "cpu"})
    expect_equal(strides_that_matter(res["meta"]), strides_that_matter(expected), f"the shape, strides, dtype and device of {what} (torch.empty_like(x)'s)")
    expect(res["fake"]["fake"], f"{what} under FakeTensorMode did not return a FakeTensor: {res['fake']['meta']}")
    expect(not res["fake"]["is_input"], f"{what} under FakeTensorMode returned x itself: the output is a new tensor")
    expect_equal(strides_that_matter(res["fake"]["meta"]), strides_that_matter(expected), f"the metadata of {what} under FakeTensorMode")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_operator_large_inputs(student, gen, dtype):
    """torch.ops.c1601.gelu_dropout_op(x, keep, p) is gelu(x) * keep / (1 - p) for large finite x too: a dropped
    element is 0 even where gelu(x) / (1 - p) overflows (scaling before masking gives inf * 0 = nan)"""
    p = 0.5
    big = torch.finfo(dtype).max
    scale = torch.empty(6, dtype=f64).uniform_(0.6, 0.9, generator=gen)
    x = torch.cat([big * scale, -big * scale[:2], 2.5 * torch.randn(4, generator=gen, dtype=f64)]).to(dtype)
    keep = torch.cat([torch.tensor([False, False, False, True, True, True]), torch.tensor([False, True]),
                      torch.rand(4, generator=gen) >= p])
    what = (f"torch.ops.c1601.gelu_dropout_op(x, keep, {p}) for {dtype} x with elements at 0.6 to 0.9 times the "
            f"largest {dtype} (kept and dropped) and a few of order 1")
    res = student.call("fused_op", x=x, keep=keep, p=p)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expected = F.gelu(x, approximate="tanh") * keep / (1 - p)  # in x's dtype: inf where a kept gelu(x) / (1 - p) overflows
    expect_close(res["out"], expected, f"{what} (the text: 'returns gelu(x) * keep / (1 - p)': 0 where keep is "
                 f"false)", **TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_operator_p_zero(student, gen, dtype):
    """torch.ops.c1601.gelu_dropout_op(x, keep, 0.0) is gelu(x) * keep: with p == 0 the operator still zeroes the
    elements where keep is false, in value and in gradient (only gelu_dropout passes an all-true mask at p == 0)"""
    x = (2 * torch.randn(4, 5, generator=gen, dtype=f64)).to(dtype)
    v = torch.randn(4, 5, generator=gen, dtype=f64).to(dtype)
    keep = torch.rand(4, 5, generator=gen) >= 0.5
    keep[0, 0], keep[0, 1] = False, True
    what = f"torch.ops.c1601.gelu_dropout_op(x, keep, 0.0) for {dtype} x (4, 5), keep false at {int((~keep).sum())} elements"
    res = student.call("fused_op", x=x, keep=keep, p=0.0, v=v)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], F.gelu(x.to(f64), approximate="tanh") * keep, f"{what} (the text: the operator returns "
                 f"gelu(x) * keep / (1 - p), p == 0 included: 0 where keep is false, not gelu(x))", **TOL[dtype])
    xr = x.clone().requires_grad_(True)
    grad = torch.autograd.grad(F.gelu(xr, approximate="tanh") * keep, xr, v)[0]
    expect_close(res["grad"], grad, f"the gradient of <v, {what}> (the text: the autograd formula gives x the gradient "
                 f"grad * keep / (1 - p) * gelu'(x), p == 0 included: 0 where keep is false, not grad * gelu'(x))",
                 **TOL[dtype])


@pytest.mark.parametrize("p,with_generator", [(0.3, True), (0.3, False), (0.0, False)],
                         ids=["p0.3-generator", "p0.3-default", "p0"])
def test_on_another_device(student, gen, p, with_generator):
    """on a device other than the default (meta, the grader's GPU stand-in), every tensor it creates or reuses in the
    forward (the draw, the mask) and in the backward is on x's device, after a call of the same shape on the CPU too"""
    shape = [int(n) for n in torch.randint(2, 7, (2,), generator=gen)]  # per student: a replay meets another shape
    what = (f"{FN}(x, {p}{', generator' if with_generator else ''}) and its backward for x {tuple(shape)} off the "
            f"default device")
    # warm: one call on a CPU x of the same shape first, so a tensor kept from it (a cached mask) meets x's device
    res = student.call("fused_on_meta", shape=shape, dtype="float32", p=p, with_generator=with_generator, warm=True)
    expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on "
           f"another device than x) raised {res.get('error')}: create the draw and the mask, and every tensor of the "
           f"backward, on x's device (device=x.device, torch.ones_like(x), ...)")
    home = res["home"]
    where = "the meta device" if home == "meta" else "the CPU, with meta as the default device"
    mixed = {op: d for op, d in res["devices"].items() if d != [home]}
    expect(not mixed, f"{what}, x on {where}: operators got tensors on other devices than x's: {mixed} (on a GPU "
           f"these calls fail: create the draw, the mask and the backward's tensors with device=x.device)")
    expect_equal((res["out"].get("device"), res["out"].get("shape")), (home, shape), f"the output of {what}, x on {where}")
    expect(res["grad"] is not None, f"{what}: the output has no grad_fn, so no gradient reaches x")
    expect_equal((res["grad"].get("device"), res["grad"].get("shape")), (home, shape),
                 f"the gradient of {what}, x on {where}")
    if not with_generator:
        explicit = res.get("generators", {})
        expect(not explicit, f"{what}: without a generator the draw must use x's device's default generator "
               f"(generator=None), but operators were given explicit generators for {explicit} (torch.default_generator "
               f"is the CPU's: on a GPU, torch.rand(..., device=x.device, generator=torch.default_generator) raises)")
