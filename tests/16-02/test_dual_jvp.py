"""Hidden checks of dual_jvp (exercise 2), against torch.func.jvp on the judge's own functions, with a record (made
inside those functions, in the worker) of how often they ran and whether their inputs carried tangents."""
import pytest
import torch
from torch.func import jvp

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.strategies import relayout

pytestmark = pytest.mark.task("dual_jvp")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def cube_ref(a):
    return a.exp() ** 3 - a


FUNCS = {  # the judge's twins of the probe's functions
    "sin_prod": lambda a, b: (a.sin() * b).sum(-1),
    "cube": cube_ref,
    "three": lambda a, b, c: a @ b + c.tanh(),
}


def rand(gen, shape, dtype=f64):
    return torch.randn(shape, generator=gen, dtype=dtype)


def run(student, what, which, primals, tangents, **kw):
    res = student.call("dual_jvp", which=which, primals=list(primals), tangents=list(tangents), **kw)
    expect("error" not in res, f"{what} raised or returned something else than two tensors: {res.get('error')}")
    return res


CASES = [("sin_prod", [(2, 3), (2, 3)]), ("sin_prod", [(4,), (4,)]), ("cube", [(3, 2)]), ("cube", [()]),
         ("three", [(2, 3), (3, 4), (2, 4)]), ("cube", [(0, 2)])]


@pytest.mark.parametrize("which,shapes", CASES, ids=[f"{w}-{'x'.join(map(str, s))}" for w, s in CASES])
def test_matches_torch_func_jvp(student, gen, which, shapes):
    """(f(*primals), J t) as torch.func.jvp returns them, for one to three primals of several shapes, 0-dim and
    empty included, primals and tangents in non-contiguous layouts (transposed, strided)"""
    primals = [rand(gen, s) for s in shapes]
    tangents = [rand(gen, s) for s in shapes]
    primals = [relayout(p, "transposed" if p.dim() >= 2 and min(p.shape) > 1 else "strided") for p in primals]
    tangents = [relayout(t, "strided") for t in tangents]
    what = f"dual_jvp(f, primals, tangents) for the judge's f '{which}' on primals of shapes {shapes} (strides " \
        f"{[p.stride() for p in primals]}, tangents' {[t.stride() for t in tangents]})"
    res = run(student, what, which, primals, tangents)
    out, want = jvp(FUNCS[which], tuple(primals), tuple(tangents))
    expect_close(res["out"], out, what + ", first result (f(*primals))", **TOL)
    expect_close(res["jvp"], want, what + ", second result (J t)", **TOL)


def test_float32(student, gen):
    """float32 primals and tangents give float32 results"""
    primals = [rand(gen, (3, 2), torch.float32)]
    tangents = [rand(gen, (3, 2), torch.float32)]
    what = "dual_jvp(f, (a,), (t,)) for float32 a, t of shape (3, 2)"
    res = run(student, what, "cube", primals, tangents)
    out, want = jvp(cube_ref, tuple(primals), tuple(tangents))
    expect_equal((res["out"].dtype, res["jvp"].dtype), (torch.float32, torch.float32), f"the dtypes of {what}")
    expect_close(res["jvp"], want, what, atol=1e-4, rtol=1e-5)


@pytest.mark.parametrize("which,shapes", CASES[:1] + CASES[2:3] + CASES[4:5], ids=["two", "one", "three"])
def test_one_forward_pass_on_duals(student, gen, which, shapes):
    """f runs exactly once, every argument a forward_ad dual tensor carrying its tangent (not torch.func.jvp's
    wrapper), a tangent of zeros included and every tangent zeros (no shortcut past f's own J); forward mode only
    (no backward); in the caller's grad mode, a caller under torch.no_grad() included (f runs without grad and
    out does not require grad, as f(*primals) there)"""
    primals = [rand(gen, s) for s in shapes]
    tangents = [rand(gen, s) for s in shapes]
    what = f"dual_jvp(f, primals, tangents) with {len(shapes)} primal(s) of shapes {shapes}"
    kw = {}
    if len(shapes) == 2:  # a tangent of zeros is still a tangent: its primal reaches f as a dual tensor too
        tangents[0] = torch.zeros(shapes[0], dtype=f64)
        what += ", the first tangent all zeros, called under torch.no_grad() with primals that require grad"
        kw = {"grad_enabled": False, "requires_grad": True}
    if len(shapes) == 1:  # every tangent zero: still one call of f on duals (J t is J's own 0 * J, NaN where J is inf)
        tangents[0] = torch.zeros(shapes[0], dtype=f64)
        what += ", its one tangent all zeros"
    res = run(student, what, which, primals, tangents, **kw)
    expect(len(res["seen"]) == 1, f"{what} called f {len(res['seen'])} times; forward mode needs exactly one call")
    mode = kw.get("grad_enabled", True)
    expect(res["grad_modes"] == [mode], f"{what}: f ran with torch.is_grad_enabled() {res['grad_modes']}, the "
           f"caller's grad mode is {mode} (clause: call f in the caller's grad mode, as in f(*primals): no "
           f"torch.enable_grad() nor torch.no_grad() of your own around it)")
    if not mode:
        expect(res.get("out_requires_grad") is False, f"{what}: the first result requires grad, where f(*primals) "
               f"under the caller's torch.no_grad() does not (clause: out is f(*primals), f in the caller's grad "
               f"mode)")
    expect(len(res["seen"][0]) == len(shapes), f"{what}: f received {len(res['seen'][0])} arguments for "
           f"{len(shapes)} primals")
    expect(all(res["seen"][0]), f"{what}: the arguments f received carried tangents {res['seen'][0]}; each must be "
           f"fwAD.make_dual(primal, tangent) inside fwAD.dual_level(), also for a tangent of zeros (torch.func.jvp "
           f"passes wrappers of its own)")
    if which == "cube":
        expect("backward" not in res["calls"], f"{what} ran a backward formula: compute J t in forward mode only")
    expect_close(res["jvp"], jvp(FUNCS[which], tuple(primals), tuple(tangents))[1], what + ", second result", **TOL)


def test_f_that_differentiates_inside(student, gen):
    """f runs as the caller would run it, in the caller's grad mode: an f that differentiates its own input
    (forward-over-reverse by hand, torch.autograd.grad(..., create_graph=True) of primals that require grad) gives
    f(*primals) and J t"""
    primals, tangents = [rand(gen, (4,))], [rand(gen, (4,))]
    what = "dual_jvp(f, (a,), (t,)) with a (4,) requiring grad and f(a) = torch.autograd.grad((a.sin() ** 2).sum(), " \
           "a, create_graph=True)[0] (forward-over-reverse by hand: J t is the Hessian of sum(sin(a) ** 2) times t)"
    res = student.call("dual_jvp", which="grad_inside", primals=primals, tangents=tangents, again=False,
                       requires_grad=True)
    expect("error" not in res, f"{what} raised or returned something else than two tensors: {res.get('error')} "
           f"(clause: out is f(*primals); f runs in the caller's grad mode, on duals of the primals as they are: "
           f"no torch.no_grad() around it, no detached primals)")
    expect(res["grad_modes"] == [True], f"{what}: f ran with torch.is_grad_enabled() {res['grad_modes']}, the "
           f"caller's grad mode is True (clause: f runs in the caller's grad mode)")
    out, want = jvp(lambda a: (2 * a).sin(), tuple(primals), tuple(tangents))  # the gradient of sum(sin(a)^2): sin 2a
    expect_close(res["out"], out, what + ", first result (f(*primals) = sin(2a))", **TOL)
    expect_close(res["jvp"], want, what + ", second result (J t = 2 cos(2a) t)", **TOL)
    og = res.get("out_grad")
    expect(isinstance(og, list) and len(og) == 1 and isinstance(og[0], torch.Tensor), f"{what}: the gradient of the "
           f"first result's sum with respect to a: {og if not isinstance(og, list) else 'none reaches a'}, where "
           f"f(*primals) = sin(2a) carries the graph back to a (clause: out is f(*primals): not detached, not "
           f"computed apart from the primals)")
    expect_close(og[0], 2 * torch.cos(2 * primals[0]), what + ": the gradient of the first result's sum with "
                 "respect to a (that of f(*primals) = sin(2a): 2 cos(2a))", **TOL)


@pytest.mark.parametrize("shape", [(4,), ()], ids=str)
def test_output_without_tangent(student, gen, shape):
    """an output that does not depend on the primals gives a zero jvp of the output's shape and dtype, a tensor of
    zeros at every call: a caller that writes into one result (jv.add_(1)) does not change the next call's"""
    primals, tangents = [rand(gen, shape)], [rand(gen, shape)]
    what = f"dual_jvp(f, (a,), (t,)) where f ignores a (a constant (2, 3) output), a of shape {shape}"
    res = run(student, what, "const", primals, tangents, twice=True)
    expect_close(res["out"], torch.full((2, 3), 1.5, dtype=f64) + primals[0].sum(), what + ", first result", **TOL)
    expect_equal((tuple(res["jvp"].shape), res["jvp"].dtype), ((2, 3), f64), f"the shape and dtype of J t in {what}")
    expect_close(res["jvp"], torch.zeros(2, 3, dtype=f64), what + ", second result (zeros)", atol=0, rtol=0)
    again = f"a second call of {what}, after the caller added 1 in place to the first call's J t"
    expect("error2" not in res, f"{again} raised {res.get('error2')}")
    expect_close(res["jvp2"], torch.zeros(2, 3, dtype=f64), f"{again}, second result (zeros: a new tensor of zeros "
                 f"at each call, not one kept from an earlier call, which the caller may have written into)",
                 atol=0, rtol=0)


def test_zero_jvp_of_a_nonfinite_output_of_another_dtype(student, gen):
    """the zero jvp of an output without a tangent is exactly zero and of the output's dtype, also where the output
    is infinite or NaN and of another dtype than the primals"""
    primals, tangents = [rand(gen, (3,))], [rand(gen, (3,))]
    what = "dual_jvp(f, (a,), (t,)) where f ignores float64 a and returns the float32 constant " \
           "[[inf, -inf, nan], [1.5, -2.0, 0.0]]"
    res = run(student, what, "const_f32_nonfinite", primals, tangents)
    expect_equal(res["dtypes"], [torch.float32, torch.float32], f"the dtypes of the two results of {what} (J t "
                 f"is zeros of the output's dtype, not the primals' or tangents')")
    expect_close(res["jvp"], torch.zeros(2, 3, dtype=torch.float32), f"{what}, second result: zeros everywhere "
                 f"(out * 0 is NaN where out is infinite or NaN; torch.zeros_like(out) is not)", atol=0, rtol=0)


def test_zero_jvp_on_the_outputs_device(student, gen):
    """the zero jvp of an output without a tangent is made on the output's device (here meta, a stand-in for cuda)"""
    primals, tangents = [rand(gen, (3,))], [rand(gen, (3,))]
    what = "dual_jvp(f, (a,), (t,)) where f ignores a and returns a (2, 3) tensor on another device (meta)"
    res = run(student, what, "const_meta", primals, tangents)
    expect_equal(res["devices"], ["meta", "meta"], f"the devices of the two results of {what} (zeros made without "
                 f"device= land on the CPU: on a GPU, J t would be on the CPU while f's output is on cuda; "
                 f"torch.zeros_like(out) keeps the output's device)")
    expect_equal(res["jvp"], ((2, 3), f64), f"the shape and dtype of J t in {what}")


def test_no_level_left_open(student, gen):
    """no dual level is left open: a second call right after works"""
    primals, tangents = [rand(gen, (3,)), rand(gen, (3,))], [rand(gen, (3,)), rand(gen, (3,))]
    what = "dual_jvp(f, (a, b), (ta, tb))"
    res = run(student, what, "sin_prod", primals, tangents)
    expect(res["level_after"] == -1, f"{what} returned with dual level {res['level_after']} still open (use "
           f"`with fwAD.dual_level():`)")
    expect(res["again"] == "ok", f"a second dual_jvp call right after {what} failed: {res['again']}")
    expect_close(res["jvp"], jvp(FUNCS["sin_prod"], tuple(primals), tuple(tangents))[1], what, **TOL)


@pytest.mark.parametrize("which,raised", [("raises", "KeyError"), ("interrupts", "Interrupted")],
                         ids=["error", "interrupt"])
def test_exception_in_f(student, gen, which, raised):
    """when f raises (here only on dual tensors, as an op without a forward-mode formula does), its exception
    reaches the caller, f ran once, and no dual level is left open, also for an exception that is not an Exception
    (as KeyboardInterrupt: `except Exception:` does not close the level)"""
    primals, tangents = [rand(gen, (3,))], [rand(gen, (3,))]
    what = f"dual_jvp(f, (a,), (t,)) where f raises {raised} on dual tensors" + (
        " (a BaseException that is not an Exception, as KeyboardInterrupt when the user stops a long f)"
        if which == "interrupts" else "")
    res = student.call("dual_jvp", which=which, primals=primals, tangents=tangents)
    expect(res.get("raised") == raised, f"{what}: the caller got {res.get('raised') or 'no exception'}, "
           f"expected f's {raised}")
    want = f"{float(primals[0].sum()):.9f}"
    expect(want in res.get("message", ""), f"{what}: the caller got the message {res.get('message')!r}, not f's own "
           f"(raised inside f at {want})")
    expect(res["level_after"] == -1, f"{what} left dual level {res['level_after']} open (clause: leave no dual "
           f"level open when you return, also when f raises: close it in `finally` or with `with "
           f"fwAD.dual_level():`, which see every exception)")
    expect(res["again"] == "ok", f"a dual_jvp call after {what} failed: {res['again']}")
    expect(len(res["seen"]) == 1, f"{what} called f {len(res['seen'])} times; call it once (on dual tensors) and let "
           f"its exception reach the caller")
