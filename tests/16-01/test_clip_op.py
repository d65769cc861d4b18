"""Hidden checks of smooth_clip, the operator and its fake kernel (exercise 1): values against the judge's own
limit * tanh(x / limit), layouts against torch.empty_like, fake and meta runs, and one opaque node under
torch.compile(fullgraph=True)."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.probelib import relayout

pytestmark = pytest.mark.task("clip_op")
f64 = torch.float64
OP = "torch.ops.c1601.smooth_clip"
TOL = {torch.float64: {"atol": 1e-12, "rtol": 1e-10}, torch.float32: {"atol": 1e-6, "rtol": 1e-5}}


def reference(x, limit):
    return (limit * torch.tanh(x.to(f64) / limit)).to(x.dtype)


def empty_like_meta(meta):
    """The metadata torch.empty_like gives for an input with this metadata (judge side)."""
    t = torch.empty_like(torch.empty_strided(meta["shape"], meta["stride"], dtype=getattr(torch, meta["dtype"][6:])))
    return {"type": "Tensor", "shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype),
            "device": meta["device"]}


def judge_meta(shape, dtype, layout, device):
    """The metadata of x as the judge lays it out itself (never the one the worker reports)."""
    t = relayout(torch.randn(tuple(shape), generator=torch.Generator().manual_seed(0), dtype=dtype), layout)
    return {"type": "Tensor", "shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype),
            "device": device}


def strides_that_matter(meta):
    """Metadata with the strides that matter: a dimension of size 1 (or any, in an empty tensor) has no stride."""
    if meta.get("type") != "Tensor":
        return meta
    empty = 0 in meta["shape"]
    return dict(meta, stride=[None if empty or n == 1 else s for n, s in zip(meta["shape"], meta["stride"])])


def run(student, what, **kw):
    res = student.call("clip_run", **kw)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    return res


def limit_from(gen):
    return round(float(torch.empty(()).uniform_(0.3, 6.0, generator=gen)), 3)


SHAPES = [(7,), (3, 4), (2, 3, 5), (), (0, 3)]


def drawn(shape, gen):
    """``shape`` with each nonzero size grown by 0-2 per student's seed (so a replay of another student's replies
    meets other shapes); zeros stay, so an empty case stays empty."""
    return tuple(n + int(torch.randint(0, 3, (), generator=gen)) if n else 0 for n in shape)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("shape", SHAPES, ids=[str(s) for s in SHAPES])
def test_values(student, gen, shape, dtype):
    """torch.ops.c1601.smooth_clip(x, limit) is limit * tanh(x / limit) in x's dtype, for any shape (0-dim and
    empty included), and leaves x unchanged"""
    limit = limit_from(gen)
    shape = drawn(shape, gen)
    x = (4 * torch.randn(shape, generator=gen, dtype=f64)).to(dtype)
    what = f"{OP}(x, {limit}) for {dtype} x of shape {tuple(shape)}"
    res = run(student, what, x=x, limit=limit)
    expect_equal(res["out"].dtype, dtype, f"the dtype of {what}")
    expect_close(res["out"], reference(x, limit), what, **TOL[dtype])
    expect(not res["x_changed"], f"{what} changed x: the operator must leave its input alone (mutates nothing)")


def test_schema(student):
    """the schema of c1601::smooth_clip takes a tensor x and a float limit, mutates nothing and returns one tensor"""
    res = student.call("clip_schema")
    expect("error" not in res, f"{OP} is not registered: {res.get('error')}")
    schema = torch._C.parse_schema(res["schema"])
    args = [(a.name, str(a.type)) for a in schema.arguments]
    expect_equal(args, [("x", "Tensor"), ("limit", "float")], f"the arguments of {res['schema']}")
    written = [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
    expect(not written, f"{res['schema']} declares {written} as mutated; smooth_clip mutates nothing "
           f"(mutates_args=())")
    expect_equal([str(r.type) for r in schema.returns], ["Tensor"], f"what {res['schema']} returns")


def test_bound_to_the_name(student, gen):
    """the name smooth_clip is the registered operator: calling it gives the operator's values"""
    limit = limit_from(gen)
    x = 3 * torch.randn(4, 3, generator=gen, dtype=f64)
    what = f"smooth_clip(x, {limit}) called by its name in the notebook"
    expect_close(run(student, what, x=x, limit=limit, via="name")["out"], reference(x, limit), what, **TOL[f64])


INF, NAN = float("inf"), float("nan")


def expect_finite_and_close(res, x, limit, what, dtype):
    """Finite wherever x is not NaN, NaN where x is NaN, limit * tanh(x / limit) (+-limit at +-inf) elsewhere, and x
    left as it was. (The sign of a zero is not read: held8_clip_sign_abs_zero.)"""
    out = res["out"]
    expect(not res["x_changed"], f"{what} changed x (it leaves x unchanged: an infinite element clamped in place "
           f"to the largest finite value is a write into the caller's tensor)")
    finite = ~torch.isnan(x)
    expect(bool(torch.isfinite(out[finite]).all()), f"{what} is not finite where x is not NaN: {out.tolist()}")
    expect(bool(torch.isnan(out[~finite]).all()), f"{what}: where x is NaN the result is {out[~finite].tolist()}, "
           f"expected NaN (limit * tanh(NaN / limit) is NaN; 'stays finite' is for finite or infinite x)")
    expect_close(out, reference(x, limit), what + " (saturates at +-limit, +-inf gives +-limit)", **TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_extreme_values(student, gen, dtype):
    """finite and saturating at +-limit for inputs up to +-1e30 (float32) and +-1e300 (float64), exact at 0; +-inf
    gives +-limit and NaN gives NaN, x left unchanged"""
    big = 1e30 if dtype == torch.float32 else 1e300
    for limit in (1e-3, limit_from(gen), 1e3):
        x = torch.tensor([big, -big, big / 7, 0.0, -0.0, 1e-30, INF, -INF, NAN], dtype=dtype)
        what = f"{OP}(x, {limit}) for {dtype} x = {x.tolist()}"
        expect_finite_and_close(run(student, what, x=x, limit=limit), x, limit, what, dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
def test_tiny_and_huge_limits(student, gen, dtype):
    """any limit > 0: a subnormal limit (x / limit overflows and tanh saturates) and a huge one, exact at 0, with
    +-inf giving +-limit and NaN giving NaN there too, x left unchanged"""
    # 1 / limit is inf for the subnormal limits: x * (1 / limit) would give 0 * inf = nan at x = 0
    for limit in ((1e-40, 1e30) if dtype == torch.float32 else (1e-310, 1e300)):
        x = torch.tensor([3.0, -2.5, 0.0, -0.0, 1e-30, 7.5e-41 if dtype == torch.float32 else 7.5e-311, INF, -INF, NAN],
                         dtype=dtype)
        what = f"{OP}(x, {limit}) for {dtype} x = {x.tolist()}"
        expect_finite_and_close(run(student, what, x=x, limit=limit), x, limit, what, dtype)


LAYOUTS = ["transposed", "strided", "offset", "channels_last"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_output_layout(student, gen, layout):
    """the output is a new tensor with x's shape, dtype and device and the strides of torch.empty_like(x), for
    non-contiguous inputs too"""
    limit = limit_from(gen)
    x = 3 * torch.randn(2, 3, 4, 5, generator=gen, dtype=f64)
    # (the device off the default one: test_kernel_on_x_device; a default device set around a call through the
    # dispatcher does not reach the kernel's factories, so it proves nothing here)
    what = f"{OP}(x, {limit}) for a {layout} float64 x of shape (2, 3, 4, 5)"
    res = run(student, what, x=x, limit=limit, layout=layout)
    expect_close(res["out"], reference(x, limit), what, **TOL[f64])
    # x as the judge lays it out (not the metadata the worker reports after the call: the call can change it)
    want = empty_like_meta(judge_meta(x.shape, f64, layout, "cpu"))
    expect_equal(strides_that_matter(res["meta"]), strides_that_matter(want),
                 f"the shape, strides, dtype and device of {what} (those of torch.empty_like(x))")
    expect(not res["shares_input"], f"{what} returned x's own memory: an operator's output must be a new tensor")


KERNEL_CASES = [((), "contiguous"), ((0, 3), "contiguous"), ((3, 4), "contiguous"), ((4, 5), "transposed")]


def test_kernel_on_x_device(student, gen):
    """the output is on x's device for every shape, empty and 0-dim included: the operator has a kernel a GPU tensor
    reaches (one for every device), and that kernel, called off the default device (the grader's stand-in for a
    GPU), makes no tensor without device="""
    limit = limit_from(gen)
    cases = [(list(drawn(s, gen)), lay) for s, lay in KERNEL_CASES]
    res = student.call("clip_kernel_device", cases=cases, limit=limit)
    what = f"smooth_clip's kernel (the function registered for every device, or for CUDA) run on x off the default device"
    expect("error" not in res, f"{what} raised {res.get('error')}: make every tensor on x's device "
           f"(torch.empty_like(x), device=x.device)")
    expect(res.get("cuda_kernel"), f"c1601::smooth_clip has no kernel for CUDA tensors: its kernel is registered "
           f"for {res.get('kernels_for')} only, so smooth_clip(x, {limit}) on a GPU raises NotImplementedError (the "
           f"text: one kernel for every device, torch.library.custom_op without device_types)")
    missing = sorted(k for k, has in res.get("other_devices", {}).items() if not has)
    expect(not missing, f"c1601::smooth_clip has no kernel for {missing} tensors: its kernel is registered for "
           f"{res.get('kernels_for')} only, so on such a device smooth_clip raises NotImplementedError (the text: one "
           f"kernel for every device, torch.library.custom_op without device_types; naming the devices, "
           f"device_types=('cpu', 'cuda') included, leaves every other device without one)")
    home = res["home"]
    where = "the meta device" if home == "meta" else "the CPU, with meta as the default device"
    for (shape, layout), meta in zip(cases, res["outs"]):
        case = f"{what}, for a {layout} float64 x of shape {tuple(shape)} on {where}, limit {limit}"
        expect(meta.get("type") == "Tensor", f"{case} returned {meta}, not a tensor")
        expect_equal((meta["device"], meta["shape"], meta["dtype"]), (home, shape, "torch.float64"),
                     f"the device, shape and dtype of {case}: the output is on x's device (a tensor made without "
                     f"device=, such as torch.empty(x.shape, dtype=x.dtype) for an empty x, lands on the default "
                     f"device: the CPU when x is on a GPU)")


def test_each_call_a_new_tensor(student, gen):
    """each call's output is a new tensor: a second call on an input of the same shape leaves the first call's
    output as it was"""
    limit = limit_from(gen)
    x1, x2 = (3 * torch.randn(2, 3, 4, generator=gen, dtype=f64) for _ in range(2))
    what = f"{OP}(x1, {limit}) then {OP}(x2, {limit}), x1 and x2 float64 tensors of shape (2, 3, 4)"
    res = student.call("clip_two_calls", x1=x1, x2=x2, limit=limit)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["first"], reference(x1, limit), f"the first output of {what}, read after the second call (the "
                 f"output is a new tensor: not a buffer that the next call writes again)", **TOL[f64])
    expect_close(res["second"], reference(x2, limit), f"the second output of {what}", **TOL[f64])
    expect(not res["same_storage"], f"{what}: the two outputs share memory; each call must return a new tensor")


CASES = [((3, 4), "float32", "contiguous"), ((4, 6), "float64", "transposed"), ((2, 3, 4, 5), "float32", "channels_last"),
         ((5, 3), "float64", "strided"), ((), "float32", "contiguous"), ((0, 4), "float64", "contiguous")]


@pytest.mark.parametrize("shape,dtype,layout", CASES, ids=[f"{s}-{d}-{l}" for s, d, l in CASES])
def test_fake_and_meta(student, gen, shape, dtype, layout):
    """the fake kernel gives the real output's metadata without data, as a new tensor: under FakeTensorMode and on
    the meta device"""
    limit = limit_from(gen)
    shape = drawn(shape, gen)
    res = student.call("clip_fake", shape=list(shape), dtype=dtype, layout=layout, limit=limit)
    what = f"{OP}(x, {limit}) for a {layout} {dtype} x of shape {shape}"
    fake = res["fake"]
    expect("error" not in fake, f"{what} under FakeTensorMode raised {fake.get('error')} (a fake kernel must not read "
           f"data, and must be registered with register_fake)")
    expect(fake["fake"], f"{what} under FakeTensorMode returned {fake['out']}, not a FakeTensor")
    expect(not fake["is_input"], f"{what} under FakeTensorMode returned x itself: the output is a new tensor")
    expect_equal(strides_that_matter(fake["out"]), strides_that_matter(empty_like_meta(judge_meta(shape, getattr(torch, dtype), layout, "cpu"))), f"the metadata of {what} under FakeTensorMode")
    meta = res["meta"]
    expect("error" not in meta, f"{what} on the meta device raised {meta.get('error')}")
    expect_equal(strides_that_matter(meta["out"]), strides_that_matter(empty_like_meta(judge_meta(shape, getattr(torch, dtype), layout, "meta"))), f"the metadata of {what} on the meta device")


def test_compiles_as_one_node(student, gen):
    """under torch.compile(fullgraph=True), a function calling smooth_clip compiles without a graph break and keeps
    the operator as one node (no tanh traced from its body)"""
    limit = limit_from(gen)
    x = 3 * torch.randn(3, 5, generator=gen, dtype=f64)
    what = f"torch.compile(lambda t: smooth_clip(t, {limit}) * 2 + 1, fullgraph=True)"
    res = student.call("clip_compile", x=x, limit=limit)
    expect("error" not in res, f"{what} failed: {res.get('error')}")
    expect(len(res["graphs"]) == 1, f"{what} gave {len(res['graphs'])} graphs, expected one")
    nodes = res["graphs"][0]
    expect("c1601.smooth_clip.default" in nodes,
           f"{what}: the graph {nodes} has no node for the operator c1601::smooth_clip (is smooth_clip the operator "
           f"returned by torch.library.custom_op?)")
    expect(not any("tanh" in n for n in nodes), f"{what}: the compiler traced into the operator's body: {nodes}")
    expect_close(res["out"], 2 * reference(x, limit) + 1, f"the value of {what}", **TOL[f64])
