"""Hidden checks for numeric_jacobian and check_gradients (15-09, judge side)."""
import runpy
import warnings
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
FUNCTIONS = PROBES["GRAD_FUNCTIONS"]
pytestmark = pytest.mark.task("gradcheck")


def leaves(inputs, needs):
    return [t.detach().clone().requires_grad_(bool(n)) for t, n in zip(inputs, needs)]


def judge_central(fn_name, inputs, needs, eps):
    """The judge's own central differences, column by column."""
    fn = FUNCTIONS[fn_name]
    base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]
    with torch.no_grad():
        n_out = fn(*base).numel()
        out = []
        for k, t in enumerate(base):
            if not needs[k]:
                out.append(None)
                continue
            jac = torch.empty(n_out, t.numel(), dtype=torch.float64)
            for j in range(t.numel()):
                plus = [b.clone() for b in base]
                minus = [b.clone() for b in base]
                plus[k].view(-1)[j] += eps
                minus[k].view(-1)[j] -= eps
                jac[:, j] = (fn(*plus).reshape(-1) - fn(*minus).reshape(-1)) / (2 * eps)
            out.append(jac)
    return out


def judge_verdict(fn_name, inputs, needs, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.autograd.gradcheck(FUNCTIONS[fn_name], tuple(leaves(inputs, needs)), raise_exception=False,
                                        **kwargs)


def smooth_inputs(gen, safe=False, big=False):
    x = torch.randn(4, 3, generator=gen, dtype=torch.float64).T  # non-contiguous, shape (3, 4)
    if safe:
        x = x.clamp(-1.4, 1.4)
    elif big:
        x = x.clone()
        x[1, 2] = 2.0  # at least one point where SmoothSomePoints is wrong
    y = torch.randn(4, generator=gen, dtype=torch.float64)
    return [x, y]


def describe(fn_name):
    return {"smooth": "a correct Function f(x, y) = x sin(y) + x²/2",
            "factor": "a Function whose x-gradient is 1.01 times too large",
            "tiny_factor": "a Function whose x-gradient is 1.0004 times too large (within rtol 1e-3)",
            "missing_term": "a Function whose x-gradient misses the term x",
            "sign_y": "a Function whose y-gradient has the wrong sign",
            "some_points": "a Function whose x-gradient is wrong only where x > 1.5",
            "big_exp": "a correct exp(x) at x near 14 (large values)",
            "big_exp_off": "exp(x) at x near 14 with a gradient 1.002 times too large",
            "mix": "a correct matrix product A @ B",
            "mix_wrong": "A @ B whose A-gradient uses B instead of B.T",
            "unused": "a correct function of (x, y) that ignores y (no gradient flows to y)",
            "exp": "a correct exp(x) at x in [0.5, 1.5)",
            "linear": "a correct 3x whose central differences are exact (every entry has |analytic - numeric| = 0)",
            "exp_half": "exp(x) whose gradient is half the true one (too small, not too large)",
            "three": "a correct f(x, y, z) = x*y + z**2 of three inputs",
            "three_wrong_y": "f(x, y, z) = x*y + z**2 whose y-gradient uses y instead of x (three inputs)"}[fn_name]


# ------------------------------------------------------------------ numeric_jacobian
@pytest.mark.parametrize("case", ["smooth", "mix", "big_exp"])
def test_numeric_jacobian_is_central_difference(student, gen, case):
    """numeric_jacobian returns float64 (out.numel(), inp.numel()) central differences per input"""
    if case == "smooth":
        inputs, needs, eps = smooth_inputs(gen), [True, True], 1e-6
    elif case == "mix":
        inputs = [torch.randn(2, 3, generator=gen, dtype=torch.float64),
                  torch.randn(3, 3, generator=gen, dtype=torch.float64)]
        needs, eps = [True, True], 1e-4
    else:
        inputs, needs, eps = [torch.rand(5, generator=gen, dtype=torch.float64) + 1.0], [True], 1e-3
    r = student.call("numeric_jac", fn_name=case, inputs=inputs, needs=needs, eps=eps)
    want = judge_central(case, inputs, needs, eps)
    jac = r["jac"]
    expect(isinstance(jac, list) and len(jac) == len(want),
           f"numeric_jacobian(fn, inputs, eps={eps}) for {describe(case)} should return a list of {len(want)} "
           f"entries (one per input), got {type(jac).__name__}")
    for k, (g, w) in enumerate(zip(jac, want)):
        what = f"numeric_jacobian(fn, inputs, eps={eps})[{k}] for {describe(case)}, input shape {tuple(inputs[k].shape)}"
        expect(isinstance(g, torch.Tensor), f"{what}: expected a tensor, got {type(g).__name__}")
        expect(g.dtype == torch.float64, f"{what}: expected dtype float64, got {g.dtype}")
        expect(not g.requires_grad, f"{what}: the result requires grad (it has a graph): compute it with autograd "
                                    f"off (torch.no_grad())")
        expect_close(g, w, what, atol=1e-8, rtol=1e-7)


def test_numeric_jacobian_none_for_inputs_without_grad(student, gen):
    """numeric_jacobian gives None for an input that does not require a gradient"""
    inputs = smooth_inputs(gen)
    r = student.call("numeric_jac", fn_name="smooth", inputs=inputs, needs=[False, True], eps=1e-6)
    jac = r["jac"]
    expect(isinstance(jac, list) and len(jac) == 2, f"numeric_jacobian should return a list of 2 entries, got {jac!r}"[:300])
    expect(jac[0] is None, f"numeric_jacobian(fn, [x, y]) with x.requires_grad False: entry 0 should be None, "
                           f"got {type(jac[0]).__name__}")
    expect_close(jac[1], judge_central("smooth", inputs, [False, True], 1e-6)[1],
                 "numeric_jacobian(fn, [x, y])[1] (y requires grad)", atol=1e-8, rtol=1e-7)


# ------------------------------------------------------------------ check_gradients verdicts
PAIRS = {
    # name: (case A, case B); a check passes only if both verdicts agree with gradcheck
    "factor": (("smooth", {}), ("factor", {})),
    "within_rtol": (("tiny_factor", {}), ("factor", {})),
    "missing_term": (("smooth", {}), ("missing_term", {})),
    "wrong_sign_one_input": (("sign_y", {"needs": [True, False]}), ("sign_y", {})),
    "wrong_at_some_points": (("some_points", {"safe": True}), ("some_points", {"big": True})),
    "matrix": (("mix", {}), ("mix_wrong", {})),
    "large_values": (("big_exp", {}), ("big_exp_off", {})),
    "unused_input": (("unused", {}), ("missing_term", {})),
    "gradient_too_small": (("exp", {}), ("exp_half", {})),
    "three_inputs": (("three", {}), ("three_wrong_y", {})),
}


def case_inputs(fn_name, opts, gen):
    if fn_name in ("mix", "mix_wrong"):
        return [torch.randn(2, 3, generator=gen, dtype=torch.float64),
                torch.randn(3, 3, generator=gen, dtype=torch.float64)], [True, True]
    if fn_name.startswith("big_exp"):
        return [torch.rand(5, generator=gen, dtype=torch.float64) + 14.0], [True]
    if fn_name == "linear":  # multiples of 1/256: x +- 2**-10 and 3 times it are exact in float64
        return [torch.randint(-512, 512, (6,), generator=gen).to(torch.float64) / 256], [True]
    if fn_name in ("exp", "exp_half"):
        return [torch.rand(5, generator=gen, dtype=torch.float64) + 0.5], [True]
    if fn_name.startswith("three"):
        return [torch.randn(2, 3, generator=gen, dtype=torch.float64) for _ in range(3)], [True, True, True]
    return smooth_inputs(gen, safe=opts.get("safe", False), big=opts.get("big", False)), opts.get("needs", [True, True])


def expect_verdict(student, gen, fn_name, opts, kwargs=None):
    kwargs = kwargs or {}
    inputs, needs = case_inputs(fn_name, opts, gen)
    want = judge_verdict(fn_name, inputs, needs, **kwargs)
    r = student.call("verdict", fn_name=fn_name, inputs=inputs, needs=needs, kwargs=kwargs)
    frozen = "" if all(needs) else " (with y not requiring a gradient)"
    args = "".join(f", {k}={v}" for k, v in kwargs.items())
    expect(r["type"] == "bool", f"check_gradients(fn, inputs{args}) for {describe(fn_name)}{frozen} returned a "
                                f"{r['type']}, expected a Python bool")
    expect(r["verdict"] is want, f"check_gradients(fn, inputs{args}) for {describe(fn_name)}{frozen} returned "
                                 f"{r['verdict']}; torch.autograd.gradcheck says {want}")
    return r


@pytest.mark.parametrize("pair", list(PAIRS))
def test_verdict_agrees_with_gradcheck(student, gen, pair):
    """check_gradients accepts and rejects exactly what torch.autograd.gradcheck accepts and rejects"""
    verdicts = set()
    for fn_name, opts in PAIRS[pair]:
        inputs, needs = case_inputs(fn_name, opts, gen)
        verdicts.add(judge_verdict(fn_name, inputs, needs))
    assert verdicts == {True, False}, "judge: each pair holds one accepted and one rejected case"
    # both cases, then three more drawn from the pair, in an order drawn per student
    picks = [0, 1] + torch.randint(0, 2, (3,), generator=gen).tolist()
    for k in torch.randperm(5, generator=gen).tolist():
        expect_verdict(student, gen, *PAIRS[pair][picks[k]])


def test_tolerances_and_eps_are_used(student, gen):
    """check_gradients uses the atol, rtol and eps it is given"""
    u = torch.rand(3, generator=gen, dtype=torch.float64).tolist()  # tolerances on either side, per student
    calls = [("factor", {"rtol": 0.02 + 0.04 * u[0]}),  # a 1 % error is within an rtol of 2 % or more
             ("factor", {"rtol": 0.002 + 0.006 * u[1]}),
             ("factor", {"rtol": [0.005, 0.05][int(u[2] < 0.5)]}),
             ("big_exp_off", {"atol": 1e-3, "rtol": 0.0}),
             ("smooth", {"eps": 1e-3, "atol": 1e-9, "rtol": 1e-9}),
             ("smooth", {"eps": 1e-4, "atol": 1e-5, "rtol": 1e-3}),
             # the comparison is inclusive (<=, as torch.allclose): an exact match passes even with zero tolerances
             ("linear", {"eps": 2.0 ** -10, "atol": 0.0, "rtol": 0.0})]
    assert judge_verdict("linear", *case_inputs("linear", {}, torch.Generator().manual_seed(0)),
                         eps=2.0 ** -10, atol=0.0, rtol=0.0) is True, "judge: the equality case must pass"
    for k in torch.randperm(len(calls), generator=gen).tolist():  # in an order drawn per student
        expect_verdict(student, gen, calls[k][0], {}, calls[k][1])


def test_rtol_scales_the_numeric_value(student, gen):
    """the relative tolerance multiplies |numeric| (as in torch.allclose(analytic, numeric)), not |analytic|"""
    # atol 0: a gradient half the true one passes rtol 0.6 (0.5 n <= 0.6 n) but would fail 0.6 * |analytic|;
    # one 1.01 times too large fails rtol 0.00995 but would pass 0.00995 * |analytic| (1.01 * 0.00995 > 0.01)
    for fn_name, kw, want in (("exp_half", {"rtol": 0.6, "atol": 0.0}, True),
                              ("factor", {"rtol": 0.00995, "atol": 0.0}, False)):
        inputs, needs = case_inputs(fn_name, {}, torch.Generator().manual_seed(0))
        assert judge_verdict(fn_name, inputs, needs, **kw) is want, "judge: the two rules disagree here"
        expect_verdict(student, gen, fn_name, {}, kw)


def test_inputs_left_unchanged(student, gen):
    """numeric_jacobian and check_gradients leave the input tensors' values unchanged"""
    inputs = smooth_inputs(gen)
    for probe, extra in [("numeric_jac", {"eps": 1e-3}), ("verdict", {"kwargs": {"eps": 1e-3}})]:
        r = student.call(probe, fn_name="smooth", inputs=inputs, needs=[True, True], **extra)
        name = "numeric_jacobian" if probe == "numeric_jac" else "check_gradients"
        for k, (after, before) in enumerate(zip(r["inputs_after"], inputs)):
            expect_equal(after, before, f"input {k} after {name}(fn, inputs, eps=1e-3) (it must not change)")
