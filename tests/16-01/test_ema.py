"""Hidden checks of ema_, the mutating operator (exercise 3): its schema as the dispatcher holds it, the update in
place against the judge's own formula, and the same update under torch.compile (fullgraph, aot_eager)."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal

pytestmark = pytest.mark.task("ema")
f64 = torch.float64
OP = "torch.ops.c1601.ema_"
TOL = {torch.float64: {"atol": 1e-12, "rtol": 1e-10}, torch.float32: {"atol": 1e-6, "rtol": 1e-5}}


def decay_from(gen):
    return round(float(torch.empty(()).uniform_(0.05, 0.95, generator=gen)), 3)


def update(avg, x, decay):
    return (decay * avg.to(f64) + (1 - decay) * x.to(f64)).to(avg.dtype)


def test_schema(student):
    """register_ema returns the CustomOpDef of c1601::ema_(avg, x, decay), whose schema marks avg, and only avg,
    as mutated and returns nothing"""
    res = student.call("ema_schema")
    expect("error" not in res, f"register_ema() or {OP} failed: {res.get('error')}")
    expect_equal(res["returned"], "CustomOpDef", "the type of what register_ema() returns")
    schema = torch._C.parse_schema(res["schema"])
    args = [(a.name, str(a.type), bool(a.alias_info and a.alias_info.is_write)) for a in schema.arguments]
    expect_equal([(n, t) for n, t, _ in args], [("avg", "Tensor"), ("x", "Tensor"), ("decay", "float")],
                 f"the arguments of {res['schema']}")
    written = [n for n, _, w in args if w]
    expect(written == ["avg"], f"{res['schema']} declares {written or 'nothing'} as mutated; ema_ writes to avg "
           f"and only avg (mutates_args={{'avg'}})")
    expect(len(schema.returns) == 0, f"{res['schema']} returns something; ema_ returns None")


CASES = [((3, 4), (3, 4), torch.float64), ((5,), (5,), torch.float32), ((3, 4), (4,), torch.float64),
         ((2, 3, 4), (1, 3, 1), torch.float32), ((), (), torch.float64)]


@pytest.mark.parametrize("sa,sx,dtype", CASES, ids=[f"{a}<-{b}-{str(d)[6:]}" for a, b, d in CASES])
def test_update_in_place(student, gen, sa, sx, dtype):
    """avg becomes decay * avg + (1 - decay) * x in place (same memory), x of avg's shape or broadcasting to it,
    x unchanged, and the call returns None"""
    decay = decay_from(gen)
    avg, x = torch.randn(sa, generator=gen, dtype=f64).to(dtype), torch.randn(sx, generator=gen, dtype=f64).to(dtype)
    for via in ("ops", "returned"):
        name = OP if via == "ops" else "the operator register_ema() returns"
        what = f"{name}(avg, x, {decay}) for {dtype} avg {tuple(sa)} and x {tuple(sx)}"
        res = student.call("ema_run", avg=avg, x=x, decay=decay, via=via)
        expect("error" not in res, f"{what} raised {res.get('error')}")
        expect_equal(res["result"], "None", f"what {what} returned")
        expect(res["same_storage"], f"{what} did not update avg in place")
        expect_close(res["avg"], update(avg, x, decay), f"avg after {what}", **TOL[dtype])
        expect_equal(res["x"], x, f"x after {what} (it must be left unchanged)")


@pytest.mark.parametrize("layout", ["transposed", "strided", "offset"])
def test_non_contiguous_avg(student, gen, layout):
    """a non-contiguous avg is updated in place through its own strides"""
    decay = decay_from(gen)
    avg, x = torch.randn(4, 6, generator=gen, dtype=f64), torch.randn(4, 6, generator=gen, dtype=f64)
    what = f"{OP}(avg, x, {decay}) for a {layout} float64 avg (4, 6)"
    res = student.call("ema_run", avg=avg, x=x, decay=decay, layout=layout)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(res["same_storage"] and res["stride"] == res["stride_before"],
           f"{what} did not write into avg's own memory (strides {res['stride_before']} -> {res['stride']})")
    expect_close(res["avg"], update(avg, x, decay), f"avg after {what}", **TOL[f64])


def test_edge_decays(student, gen):
    """decay 0 replaces avg by x, decay 1 keeps avg, and x is left unchanged at both, for an avg far larger than x
    too (decay * avg + (1 - decay) * x, not avg + (1 - decay) * (x - avg), where x - avg cancels), and far smaller
    (not x + decay * (avg - x), which loses avg at decay 1)"""
    avg0, x = torch.randn(3, 2, generator=gen, dtype=f64), torch.randn(3, 2, generator=gen, dtype=f64)
    # rows of avg from 1 to 1e18 times x's size: avg + (x - avg) loses x entirely at the last; from 1 to 1e-18 times:
    # (avg - x) + x loses avg
    for sizes in ((1.0, 1e9, 1e18), (1.0, 1e-9, 1e-18)):
        avg = avg0 * torch.tensor([[s] for s in sizes], dtype=f64)
        for decay, expected in ((0.0, x), (1.0, avg)):
            what = (f"{OP}(avg, x, {decay}) for float64 (3, 2) tensors, avg's rows about {sizes[0]:g}, {sizes[1]:g} and "
                    f"{sizes[2]:g} times x's size")
            res = student.call("ema_run", avg=avg, x=x, decay=decay)
            expect("error" not in res, f"{what} raised {res.get('error')}")
            # relative to each element (atol 0): at decay 1 an avg of 1e-18 must stay 1e-18, not become 0
            expect_close(res["avg"], expected, f"avg after {what} (avg becomes decay * avg + (1 - decay) * x: at "
                         f"decay 0 that is x, whatever avg was; at decay 1 avg itself, whatever x is)",
                         atol=0, rtol=TOL[f64]["rtol"])
            expect_equal(res["x"], x, f"x after {what} (it must be left unchanged, at decay {decay} too: scaling x "
                         f"by 1 - decay in place and back gives 0 / 0 at decay 1)")


def test_values_near_overflow(student, gen):
    """for float32 and float64 tensors whose difference x - avg stays finite, values near the dtype's largest
    included: avg becomes decay * avg + (1 - decay) * x, finite (no intermediate beyond the largest value, such as
    avg + x * (1 - decay) / decay scaled by decay afterwards)"""
    decay = round(float(torch.empty(()).uniform_(0.05, 0.3, generator=gen)), 3)
    sign = torch.tensor([1.0, 1.0, -1.0, -1.0], dtype=f64)  # avg and x of one sign per element: x - avg stays finite
    for dtype in (torch.float32, torch.float64):
        big = torch.finfo(dtype).max
        avg, x = ((big * sign * torch.empty(4, dtype=f64).uniform_(0.6, 0.9, generator=gen)).to(dtype)
                  for _ in range(2))
        what = (f"{OP}(avg, x, {decay}) for {dtype} avg {avg.tolist()} and x {x.tolist()} (0.6 to 0.9 times the "
                f"largest {dtype}, x - avg finite)")
        res = student.call("ema_run", avg=avg, x=x, decay=decay)
        expect("error" not in res, f"{what} raised {res.get('error')}")
        expect(bool(torch.isfinite(res["avg"]).all()), f"avg after {what} is {res['avg'].tolist()}, not finite: "
               f"decay * avg + (1 - decay) * x lies between avg and x (an intermediate such as avg + x * (1 - decay) / "
               f"decay overflows)")
        expect_close(res["avg"], update(avg, x, decay), f"avg after {what}", **TOL[dtype])


def test_kernel_on_avg_device(student, gen):
    """every tensor the kernel creates is on avg's device: the kernel (the one a GPU runs), called off the default
    device (the grader's stand-in for a GPU), updates avg there and mixes no devices"""
    decay = decay_from(gen)
    shape = [int(n) for n in torch.randint(2, 7, (2,), generator=gen)]  # per student: a replay meets another shape
    for xshape in (shape, shape[1:]):
        what = (f"ema_'s kernel (the one registered for every device, or for CUDA) on float32 avg {tuple(shape)} and "
                f"x {tuple(xshape)}, decay {decay}, off the default device")
        res = student.call("ema_kernel_device", shape=shape, xshape=xshape, decay=decay)
        expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on "
               f"another device than avg) raised {res.get('error')}: make every tensor on avg's device "
               f"(torch.empty_like(avg), device=avg.device) or update avg with in-place operations")
        home = res["home"]
        where = "the meta device" if home == "meta" else "the CPU, with meta as the default device"
        mixed = {op: d for op, d in res["devices"].items() if d != [home]}
        expect(not mixed, f"{what}, avg on {where}: operators got tensors on other devices than avg's: {mixed} (on a "
               f"GPU these calls fail)")
        expect_equal((res["avg"].get("device"), res["avg"].get("shape")), (home, shape),
                     f"avg's device and shape after {what}, avg on {where}")


def test_compiled_calls(student, gen):
    """under torch.compile(fullgraph=True, backend='aot_eager'), two calls on the same avg leave avg as eager
    calls do (functionalization sees the declared mutation)"""
    d1, d2 = decay_from(gen), decay_from(gen)
    avg, x = torch.randn(3, 5, generator=gen, dtype=f64), torch.randn(3, 5, generator=gen, dtype=f64)
    what = (f"a function calling {OP}(avg, x, {d1}) then {OP}(avg, 2 * x, {d2}), compiled with fullgraph=True and "
            f"backend='aot_eager'")
    res = student.call("ema_compiled", avg=avg, x=x, d1=d1, d2=d2)
    expect("error" not in res, f"{what} failed: {res.get('error')}")
    expect_close(res["avg"], update(update(avg, x, d1), 2 * x, d2),
                 f"avg after {what} (an undeclared mutation is dropped by the compiler)", **TOL[f64])
    expect_close(res["out"], x + 1, f"the value returned by {what}", **TOL[f64])
