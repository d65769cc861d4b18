"""Hidden checks for numeric_jacobian and check_gradients (15-09, judge side).

Each verdict case is one function family of the probes with a float64 ``defect`` drawn here per student
(all zeros: a correct gradient; otherwise wrong in the family's way), inputs drawn per student, and, where
the check is about them, drawn flags and tolerances. The right verdict is torch.autograd.gradcheck's on the
same function and inputs, computed here; it is decided by the drawn values, not by which family or flags a
case names, so answers copied from another student's run (or a table per family) do not carry over.
"""
import runpy
import warnings
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, example, given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_equal, fail
from course.judge.strategies import WRITABLE_LAYOUTS, shapes, tensors

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
grad_function = PROBES["grad_function"]
pytestmark = pytest.mark.task("gradcheck")


def leaves(inputs, needs):
    return [t.detach().clone().requires_grad_(bool(n)) for t, n in zip(inputs, needs)]


def judge_central(case, eps):
    """The judge's own central differences, column by column."""
    fn = grad_function(case["family"], case["defect"])
    inputs, needs = case["inputs"], case["needs"]
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


def judge_verdict(case, **kwargs):
    """torch.autograd.gradcheck's verdict on the case's function and inputs (the yardstick)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.autograd.gradcheck(grad_function(case["family"], case["defect"]),
                                        tuple(leaves(case["inputs"], case["needs"])), raise_exception=False,
                                        **kwargs)


# ------------------------------------------------------------------ cases: a family, a defect, inputs
def uniform(gen, lo, hi):
    return lo + (hi - lo) * torch.rand((), generator=gen, dtype=torch.float64).item()


def coin(gen):
    return bool(torch.randint(0, 2, (), generator=gen))


def signed(gen, lo, hi):
    return uniform(gen, lo, hi) * (1 if coin(gen) else -1)


def smooth_inputs(gen, safe=False, big=False):
    x = torch.randn(4, 3, generator=gen, dtype=torch.float64).T  # non-contiguous, shape (3, 4)
    if safe:
        x = x.clamp(-1.4, 1.4)
    elif big:
        x = x.clone()
        x[1, 2] = 2.0  # at least one point where the `points` defect is wrong
    y = torch.randn(4, generator=gen, dtype=torch.float64)
    return [x, y]


def case(family, defect, inputs, needs=None, note=""):
    return {"family": family, "defect": torch.tensor(defect, dtype=torch.float64), "inputs": inputs,
            "needs": list(needs) if needs is not None else [True] * len(inputs), "note": note}


def smooth(gen, scale=0.0, missing=0.0, sign=0.0, points=0.0, needs=(True, True), safe=False, big=False):
    note = " (x clamped to [-1.4, 1.4]: no x > 1.5)" if safe else " (x[1, 2] = 2.0 > 1.5)" if big else ""
    return case("smooth", [scale, missing, sign, points], smooth_inputs(gen, safe=safe, big=big), needs, note)


def exp_case(gen, scale=0.0, big=False):
    x = torch.rand(5, generator=gen, dtype=torch.float64) + (14.0 if big else 0.5)
    return case("exp", [scale], [x], note=" at x in [14, 15) (large values)" if big else " at x in [0.5, 1.5)")


def mix_case(gen, t=0.0):
    return case("mix", [t], [torch.randn(2, 3, generator=gen, dtype=torch.float64),
                             torch.randn(3, 3, generator=gen, dtype=torch.float64)])


def unused_case(gen, scale=0.0, extra=0.0):
    return case("unused", [scale, extra], smooth_inputs(gen))


def three_case(gen, d=(0.0, 0.0, 0.0)):
    return case("three", list(d), [torch.randn(2, 3, generator=gen, dtype=torch.float64) for _ in range(3)])


def linear_case(gen):  # multiples of 1/256: x +- 2**-10 and 3 times it are exact in float64
    return case("linear", [0.0], [torch.randint(-512, 512, (6,), generator=gen).to(torch.float64) / 256])


def describe(c):
    """The case's function in words, with its drawn defect."""
    fam, d = c["family"], c["defect"].tolist()
    if fam == "smooth":
        scale, missing, sign, points = d
        wrong = ([f"x-gradient is {1 + scale:.6g} times the true one"] if scale else []) + \
                ([f"x-gradient weights its term x by {1 - missing:.4g} instead of 1"] if missing else []) + \
                (["y-gradient has the wrong sign"] if sign else []) + \
                ([f"x-gradient is {points:.4g} too large where x > 1.5"] if points else [])
        what = "f(x, y) = x sin(y) + x²/2"
    elif fam == "exp":
        wrong = [f"gradient is {1 + d[0]:.6g} times the true one"] if d[0] else []
        what = "exp(x)"
    elif fam == "exp_low":
        wrong = [f"gradient is {1 + d[0]:.6g} times the true one where x < 1 (right elsewhere)"] if d[0] else []
        what = "exp(x)"
    elif fam == "mix":
        wrong = [f"A-gradient is g @ ({1 - d[0]:.4g} B.T + {d[0]:.4g} B) instead of g @ B.T"] if d[0] else []
        what = "A @ B (a matrix product)"
    elif fam == "unused":
        wrong = ([f"x-gradient is {1 + d[0]:.6g} times the true one"] if d[0] else []) + \
                ([f"backward gives y a gradient of {d[1]:.4g} per output element"] if d[1] else [])
        what = "f(x, y) = x² that ignores y" + ("" if d[1] else " (no gradient flows to y)")
    elif fam == "three":
        wrong = ([f"x-gradient is {1 + d[0]:.6g} times the true one"] if d[0] else []) + \
                ([f"y-gradient is g·(x + {d[1]:.4g}·(y - x)) instead of g·x"] if d[1] else []) + \
                (["backward returns None for z (no gradient flows to it, although f depends on z)"]
                 if d[2] == -1 else [f"z-gradient is {1 + d[2]:.6g} times the true one"] if d[2] else [])
        what = "f(x, y, z) = x*y + z² of three inputs"
    elif fam == "nan_grad":
        wrong = ["backward computes 2·g·x·((x > 0) / (x > 0)): NaN (0 / 0) wherever x <= 0"] if d[0] else []
        what = "x²"
    elif fam == "sqrt":
        wrong, what = [], "torch.sqrt(x) (at x = 0 its central difference is NaN and its gradient inf)"
    elif fam == "linear32":
        wrong, what = [], "3x that returns float32 (its inputs are float64)"
    elif fam == "view":
        wrong, what = [], "x.T[1:], whose output is a view sharing x's memory"
    elif fam == "ignores":
        wrong = [f"value adds {d[0]:.4g}·sum(x.detach()): it depends on x, but no gradient flows to x (the output "
                 f"requires none)"] if d[0] else []
        what = "f(x, y) = 2 sin(y), which does not depend on x"
    elif fam == "wave":
        wrong, what = [], f"sin({d[0]:.4g} x)"
    else:
        wrong, what = [], ("3x" if "1e5" in c["note"] else
                           "3x, whose central differences are exact (every entry has |analytic - numeric| = 0)")
    kind = "function" if fam in ("linear", "view", "ignores", "sqrt", "linear32", "wave") else "Function"
    text = (f"a {kind} {what}{c['note']} whose " + " and whose ".join(wrong)) if wrong else \
        f"a correct {kind} {what}{c['note']}"
    shapes = ", ".join(str(tuple(t.shape)) for t in c["inputs"])
    names = "xyz" if len(c["inputs"]) == 3 else "xy" if fam != "mix" else "AB"
    frozen = [names[k] for k, n in enumerate(c["needs"]) if not n]
    frozen = f", {' and '.join(frozen)} not requiring a gradient" if frozen else ""
    return f"{text}, inputs of shapes {shapes}{frozen}"


def expect_verdict(student, c, kwargs=None, want=None, stale=None, clause=""):
    """``stale``: the inputs that require a gradient already hold a .grad of that value (an earlier backward's);
    ``clause``: the text's clause the case is about, added to a wrong verdict's message."""
    kwargs = kwargs or {}
    want = judge_verdict(c, **kwargs) if want is None else want
    r = student.call("verdict", family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                     kwargs=kwargs, stale=stale, catch=True)
    args = "".join(f", {k}={v:.6g}" if isinstance(v, float) else f", {k}={v}" for k, v in kwargs.items())
    held = "" if stale is None else f" (the inputs already hold a .grad filled with {stale:g})"
    if r.get("error"):
        fail(f"check_gradients(fn, inputs{args}) for {describe(c)}{held} raised {r['error']}; "
             f"torch.autograd.gradcheck(fn, inputs{args}) says {want}")
    expect(r["type"] == "bool", f"check_gradients(fn, inputs{args}) for {describe(c)}{held} returned a "
                                f"{r['type']}, expected a Python bool")
    expect(r["verdict"] is want, f"check_gradients(fn, inputs{args}) for {describe(c)}{held} returned "
                                 f"{r['verdict']}; torch.autograd.gradcheck(fn, inputs{args}) says {want}" + clause
                                 + ("; if you read .grad: the analytic Jacobian is what backward delivers, not what "
                                    ".grad held before" if stale is not None else ""))
    # "both leave the input tensors unchanged", on every case's inputs and layouts (they come back with each call)
    after = r.get("inputs_after") or []
    expect(len(after) == len(c["inputs"]), f"check_gradients(fn, inputs{args}): the probe sent back {len(after)} "
                                           f"inputs for {len(c['inputs'])}")
    for k, (a, b) in enumerate(zip(after, c["inputs"])):
        expect_equal(a, b, f"input {k} after check_gradients(fn, inputs{args}) for {describe(c)} (the clause 'both "
                           f"leave the input tensors unchanged': same values afterwards)")
    return r


# ------------------------------------------------------------------ numeric_jacobian
# default_eps: a numeric_jacobian whose default step is not the text's eps=1e-6 (1e-4, "more robust") differs from
# the central difference at 1e-6 by the eps**2 term, which only a function with a large third derivative shows
# large_x: at x of 1e5 to 1e6 the step really taken, (x + eps) - (x - eps) rounded in float64, differs from 2·eps by
# about 1e-5 relative; the text (and gradcheck) divides by 2·eps, a numeric_jacobian dividing by the rounded step
# ("Numerical Recipes" style) is off by that much in every column
@pytest.mark.parametrize("case_name", ["smooth", "mix", "big_exp", "float32_out", "default_eps", "large_x"])
def test_numeric_jacobian_is_central_difference(student, gen, case_name):
    """numeric_jacobian returns float64 (out.numel(), inp.numel()) central differences per input (eps=1e-6 when
    it is not given)"""
    if case_name == "default_eps":  # called as numeric_jacobian(fn, inputs): the judge's step is 1e-6
        k = uniform(gen, 20.0, 40.0)
        c, eps = case("wave", [k], [torch.rand(5, generator=gen, dtype=torch.float64) * 2 - 1],
                      note=" at x in [-1, 1)"), None
    elif case_name == "smooth":
        c, eps = smooth(gen), 1e-6
    elif case_name == "mix":
        c, eps = mix_case(gen), 1e-4
    elif case_name == "float32_out":  # the Jacobian is float64 whatever dtype fn returns
        c, eps = case("linear32", [0.0], [torch.randint(-512, 512, (5,), generator=gen).to(torch.float64) / 256],
                      note=" at x on a grid of 1/256"), 2.0 ** -10
    elif case_name == "large_x":  # (f(x + eps) - f(x - eps)) / (2·eps), not / ((x + eps) - (x - eps))
        c, eps = case("linear", [0.0], [(torch.rand(5, generator=gen, dtype=torch.float64) * 9 + 1) * 1e5],
                      note=" at x in [1e5, 1e6) (there (x + eps) - (x - eps) rounds to a step that is not 2·eps: the "
                           "text divides by 2·eps, as gradcheck does)"), 1e-6
    else:
        c, eps = case("exp", [0.0], [torch.rand(5, generator=gen, dtype=torch.float64) + 1.0],
                      note=" at x in [1, 2)"), 1e-3
    r = student.call("numeric_jac", family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                     eps=eps)
    want = judge_central(c, 1e-6 if eps is None else eps)
    call = ("numeric_jacobian(fn, inputs) (no eps given: the default is eps=1e-6)" if eps is None else
            f"numeric_jacobian(fn, inputs, eps={eps})")
    jac = r["jac"]
    expect(isinstance(jac, list) and len(jac) == len(want),
           f"{call} for {describe(c)} should return a list of {len(want)} entries (one per input), got "
           f"{type(jac).__name__}" + (f" of {len(jac)}" if isinstance(jac, list) else ""))
    for k, (g, w) in enumerate(zip(jac, want)):
        what = f"{call}[{k}] for {describe(c)}, input shape {tuple(c['inputs'][k].shape)}"
        expect(isinstance(g, torch.Tensor), f"{what}: expected a tensor, got {type(g).__name__}")
        expect(g.dtype == torch.float64, f"{what}: expected dtype float64, got {g.dtype}"
                                         + (" (fn returns float32 here: the text asks for a float64 tensor whatever "
                                            "fn returns)" if c["family"] == "linear32" else ""))
        expect(not g.requires_grad, f"{what}: the result requires grad (it has a graph): compute it with autograd "
                                    f"off (torch.no_grad())")
        expect_close(g, w, what, atol=1e-8, rtol=1e-7)
    expect(r["calls_with_grad"] == 0,
           f"{call} for {describe(c)} called fn {r['calls_with_grad']} of "
           f"{r['calls']} times with grad mode on (torch.is_grad_enabled() was True inside fn), expected 0: "
           f"'compute it with autograd off' (torch.no_grad())")


def layout_note(x):
    return (f" at an x of shape {tuple(x.shape)} laid out with strides {x.stride()} and storage offset "
            f"{x.storage_offset()}{'' if x.is_contiguous() else ' (non-contiguous)'}")


ANY_INPUT = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@ANY_INPUT
@given(x=tensors(shape=shapes(0, 3, 1, 4), layouts=WRITABLE_LAYOUTS, values=("normal", "ties")),
       eps=st.sampled_from([1e-6, 1e-4]))
@example(x=torch.tensor(0.7, dtype=torch.float64), eps=1e-6)  # 0-dim
@example(x=torch.linspace(-1, 1, 12, dtype=torch.float64).view(3, 4)[:, ::2], eps=1e-6)  # a strided slice
def test_numeric_jacobian_any_shape_and_layout(student, x, eps):
    """numeric_jacobian on an input of any rank (0-dim included) and memory layout: column j perturbs the
    j-th element in reshape(-1) order (a gradient check of a zero-size input is not asked for)"""
    c = case("exp", [0.0], [x], note=layout_note(x))
    r = student.call("numeric_jac", family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                     eps=eps)
    want = judge_central(c, eps)[0]
    what = f"numeric_jacobian(fn, [x], eps={eps}) for {describe(c)}"
    jac = r["jac"]
    expect(isinstance(jac, list) and len(jac) == 1, f"{what}: expected a list of 1 entry, got {type(jac).__name__}")
    expect(isinstance(jac[0], torch.Tensor), f"{what}: expected a tensor of shape {tuple(want.shape)}, "
                                             f"got {type(jac[0]).__name__}")
    expect(tuple(jac[0].shape) == tuple(want.shape), f"{what}: expected shape {tuple(want.shape)} "
                                                     f"(out.numel(), x.numel()), got {tuple(jac[0].shape)}")
    expect_close(jac[0], want, what, atol=1e-8, rtol=1e-7)
    expect_equal(r["inputs_after"][0], x, f"x after {what} (it must not change)")


@ANY_INPUT
@given(x=tensors(shape=shapes(0, 3, 1, 4), layouts=WRITABLE_LAYOUTS, values=("normal",)),
       scale=st.sampled_from([0.0, 0.0, 1e-6, 0.05, -0.3]))
def test_verdict_any_layout(student, x, scale):
    """check_gradients agrees with gradcheck on inputs of any rank and memory layout"""
    expect_verdict(student, case("exp", [scale], [x], note=layout_note(x)))


def test_numeric_jacobian_none_for_inputs_without_grad(student, gen):
    """numeric_jacobian gives None for an input that does not require a gradient"""
    c = smooth(gen, needs=(False, True))
    r = student.call("numeric_jac", family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                     eps=1e-6)
    jac = r["jac"]
    expect(isinstance(jac, list) and len(jac) == 2, f"numeric_jacobian should return a list of 2 entries, got {jac!r}"[:300])
    expect(jac[0] is None, f"numeric_jacobian(fn, [x, y]) with x.requires_grad False: entry 0 should be None, "
                           f"got {type(jac[0]).__name__}")
    expect_close(jac[1], judge_central(c, 1e-6)[1],
                 "numeric_jacobian(fn, [x, y])[1] (y requires grad)", atol=1e-8, rtol=1e-7)


# ------------------------------------------------------------------ check_gradients verdicts
# Per check: draw(gen, accept, key) gives a case meant to be accepted (or rejected) by gradcheck, its defect,
# inputs and flags drawn from gen. `key` names a variant every student gets (the mistakes the check is
# about); None draws one. The right verdict is always gradcheck's, computed by the judge.
TF, TT, FT = (True, False), (True, True), (False, True)


def draw_factor(gen, accept, key=None):
    return smooth(gen) if accept else smooth(gen, scale=signed(gen, 0.005, 0.05))


def draw_within_rtol(gen, accept, key=None):  # within rtol 1e-3: accepted although not exact
    return smooth(gen, scale=signed(gen, 1e-4, 5e-4) if accept else signed(gen, 0.003, 0.03))


def draw_missing_term(gen, accept, key=None):
    return smooth(gen) if accept else smooth(gen, missing=uniform(gen, 0.5, 1.0))


def draw_wrong_sign(gen, accept, key=None):
    """Defects on x (a scale) and y (the sign) crossed with which inputs require a gradient: only the
    defects of the inputs that are checked decide."""
    needs = key or [TF, TT, FT][int(torch.randint(0, 3, (), generator=gen))]
    bad = lambda: signed(gen, 0.005, 0.05)  # noqa: E731
    if key == TF:  # y's gradient is wrong, but y does not require a gradient: accepted
        return smooth(gen, sign=1.0, needs=TF)
    if key == TT:  # the same function with y checked: rejected
        return smooth(gen, sign=1.0, needs=TT)
    if needs == TF:
        return smooth(gen, scale=0.0 if accept else bad(), sign=float(coin(gen)), needs=TF)
    if needs == FT:
        return smooth(gen, scale=bad() if coin(gen) else 0.0, sign=0.0 if accept else 1.0, needs=FT)
    if accept:
        return smooth(gen, needs=TT)
    which = int(torch.randint(0, 3, (), generator=gen))  # x, y or both wrong
    return smooth(gen, scale=bad() if which != 1 else 0.0, sign=1.0 if which != 0 else 0.0, needs=TT)


def draw_some_points(gen, accept, key=None):
    """A gradient wrong only where x > 1.5: accepted on inputs that never get there."""
    if key == "safe":
        return smooth(gen, points=uniform(gen, 0.3, 1.0), safe=True)
    if not accept:
        return smooth(gen, points=uniform(gen, 0.3, 1.0), big=True)
    return smooth(gen, points=uniform(gen, 0.3, 1.0), safe=True) if coin(gen) else smooth(gen, big=True)


def draw_matrix(gen, accept, key=None):
    return mix_case(gen, 0.0 if accept else uniform(gen, 0.5, 1.0))


def draw_large_values(gen, accept, key=None):
    return exp_case(gen, 0.0 if accept else signed(gen, 0.002, 0.02), big=True)


def draw_unused(gen, accept, key=None):
    """y is not used: correct when no gradient flows to it; wrong when x's gradient is off (y still unused)
    or when backward gives y a gradient."""
    if accept:
        return unused_case(gen)
    if key == "x_wrong" or (key is None and coin(gen)):
        return unused_case(gen, scale=signed(gen, 0.01, 0.1))
    return unused_case(gen, extra=signed(gen, 0.5, 2.0))


def draw_too_small(gen, accept, key=None):  # too SMALL: only |analytic - numeric| catches it
    return exp_case(gen, 0.0 if accept else -uniform(gen, 0.3, 0.7))


def draw_three(gen, accept, key=None):
    if accept:
        return three_case(gen)
    d = [0.0, 0.0, 0.0]
    if key == "z_none":  # backward returns None for z although f depends on it: its analytic rows are zero
        d[2] = -1.0
        return three_case(gen, d)
    which = 1 if key == "y" else int(torch.randint(0, 3, (), generator=gen))
    d[which] = uniform(gen, 0.5, 1.0) if which == 1 else signed(gen, 0.01, 0.1)
    return three_case(gen, d)


def draw_small_next_to_large(gen, accept, key=None):
    """exp(x) at three x in [0, 0.9) and two in [10, 12), wrong by 1-5 % where x < 1 only: each wrong entry is far
    outside its own tolerance, while the error is tiny against the norm of the whole Jacobian."""
    x = torch.cat([torch.rand(3, generator=gen, dtype=torch.float64) * 0.9,
                   10 + 2 * torch.rand(2, generator=gen, dtype=torch.float64)])
    x = x[torch.randperm(5, generator=gen)]
    return case("exp_low", [0.0 if accept else signed(gen, 0.01, 0.05)], [x],
                note=" at three x in [0, 0.9) and two in [10, 12)")


def draw_nan_entries(gen, accept, key=None):
    """A Jacobian entry that is NaN satisfies no tolerance, and gradcheck rejects it: x² whose backward is NaN where
    x <= 0 (analytic NaN) on inputs that reach x <= 0, or torch.sqrt at an x of exactly 0 (numeric NaN, analytic
    inf). Accepted: the same functions on inputs that never get there, or x² with a correct backward."""
    x = torch.rand(5, generator=gen, dtype=torch.float64) + 0.5
    at = int(torch.randint(0, 5, (), generator=gen))
    if accept:
        if coin(gen):
            return case("sqrt", [0.0], [x], note=" at x in [0.5, 1.5)")
        on = float(coin(gen))
        if not on:
            x[at] = -x[at]
        return case("nan_grad", [on], [x], note="" if on else " at x with one negative element")
    if key == "numeric_nan" or (key is None and coin(gen)):
        x[at] = 0.0
        return case("sqrt", [0.0], [x], note=f" at x with x[{at}] = 0")
    x[at] = -x[at]
    return case("nan_grad", [1.0], [x], note=f" at x with x[{at}] < 0")


# check: (drawer, the cases every student gets as (accept, key)); three more are drawn per student
CHECKS = {
    "factor": (draw_factor, [(True, None), (False, None)]),
    "within_rtol": (draw_within_rtol, [(True, None), (False, None)]),
    "missing_term": (draw_missing_term, [(True, None), (False, None)]),
    "wrong_sign_one_input": (draw_wrong_sign, [(True, TF), (False, TT)]),
    "wrong_at_some_points": (draw_some_points, [(True, "safe"), (False, None)]),
    "matrix": (draw_matrix, [(True, None), (False, None)]),
    "large_values": (draw_large_values, [(True, None), (False, None)]),
    "unused_input": (draw_unused, [(True, None), (False, "x_wrong"), (False, "y_gets_one")]),
    "gradient_too_small": (draw_too_small, [(True, None), (False, None)]),
    "three_inputs": (draw_three, [(True, None), (False, "y"), (False, "z_none")]),
    "small_entries_next_to_large": (draw_small_next_to_large, [(True, None), (False, None)]),
    "nan_entries": (draw_nan_entries, [(True, None), (False, "analytic_nan"), (False, "numeric_nan")]),
}


CLAUSES = {"small_entries_next_to_large": " (the clause 'every entry satisfies |analytic - numeric| <= atol + "
                                          "rtol·|numeric|': each entry against its own tolerance, not the Jacobian's "
                                          "norm against the norm's)",
           "nan_entries": " (the clause 'True if every entry satisfies |analytic - numeric| <= atol + rtol·|numeric|': "
                          "a NaN entry satisfies no tolerance, so test that every entry is within it, not that no "
                          "entry is beyond it)"}


def draw_cases(gen, check, n=5):
    """The check's fixed cases and more drawn per student (each accepted or rejected by a coin), shuffled."""
    draw, fixed = CHECKS[check]
    plan = list(fixed) + [(coin(gen), None) for _ in range(n - len(fixed))]
    cases = [draw(gen, accept, key) for accept, key in plan]
    return [cases[k] for k in torch.randperm(len(cases), generator=gen).tolist()]


@pytest.mark.parametrize("pair", list(CHECKS))
def test_verdict_agrees_with_gradcheck(student, gen, pair):
    """check_gradients accepts and rejects exactly what torch.autograd.gradcheck accepts and rejects, also for
    inputs that already hold a .grad"""
    cases = draw_cases(gen, pair)
    wants = [judge_verdict(c) for c in cases]
    assert set(wants) == {True, False}, "judge: each check holds an accepted and a rejected case"
    # every other case's inputs arrive with a .grad from an earlier backward (its value drawn per student)
    stale = [None if k % 2 else round(float(torch.rand(1, generator=gen)) * 4 + 0.5, 3) for k in range(len(cases))]
    clause = CLAUSES.get(pair, "")
    for c, want, s in zip(cases, wants, stale):
        expect_verdict(student, c, want=want, stale=s, clause=clause)


def test_tolerances_and_eps_are_used(student, gen):
    """check_gradients uses the atol, rtol and eps it is given"""
    u = torch.rand(3, generator=gen, dtype=torch.float64).tolist()  # tolerances on either side, per student
    calls = [(smooth(gen, scale=0.01), {"rtol": 0.02 + 0.04 * u[0]}),  # a 1 % error is within an rtol of 2 % or more
             (smooth(gen, scale=0.01), {"rtol": 0.002 + 0.006 * u[1]}),
             (smooth(gen, scale=0.01), {"rtol": [0.005, 0.05][int(u[2] < 0.5)]}),
             (exp_case(gen, 0.002, big=True), {"atol": 1e-3, "rtol": 0.0}),
             (smooth(gen), {"eps": 1e-3, "atol": 1e-9, "rtol": 1e-9}),
             (smooth(gen), {"eps": 1e-4, "atol": 1e-5, "rtol": 1e-3}),
             # the comparison is inclusive (<=, as torch.allclose): an exact match passes even with zero tolerances
             (linear_case(gen), {"eps": 2.0 ** -10, "atol": 0.0, "rtol": 0.0})]
    assert judge_verdict(linear_case(torch.Generator().manual_seed(0)), eps=2.0 ** -10, atol=0.0,
                         rtol=0.0) is True, "judge: the equality case must pass"
    for k in torch.randperm(len(calls), generator=gen).tolist():  # in an order drawn per student
        expect_verdict(student, calls[k][0], calls[k][1])


def draw_rtol_case(gen, accept):
    """exp(x) whose gradient is s times the true one, atol 0 and an rtol r drawn per case, where the two rules
    disagree: s = 1 - d with r/(1+r) < d <= r is within r|numeric| (accepted) but not r|analytic|; s = 1 + d
    with r < d <= r/(1-r) is within r|analytic| but not r|numeric| (rejected)."""
    r = uniform(gen, 0.2, 0.8)
    lo, hi = (r / (1 + r), r) if accept else (r, r / (1 - r))
    d = lo + (hi - lo) * uniform(gen, 0.2, 0.8)
    return exp_case(gen, -d if accept else d), {"rtol": r, "atol": 0.0}


def test_rtol_scales_the_numeric_value(student, gen):
    """the relative tolerance multiplies |numeric| (as in torch.allclose(analytic, numeric)), not |analytic|"""
    plan = [True, False] + [coin(gen) for _ in range(3)]
    cases = [draw_rtol_case(gen, accept) for accept in plan]
    wants = [judge_verdict(c, **kw) for c, kw in cases]
    assert wants == plan, "judge: the two rules disagree on every case, and gradcheck follows |numeric|"
    for k in torch.randperm(len(cases), generator=gen).tolist():
        expect_verdict(student, cases[k][0], cases[k][1], want=wants[k])


# numeric_jacobian perturbing x in place and keeping fn's outputs without copying them: for a function that
# returns a view of x, "f(x + eps e_j)" changes when x is perturbed again, and every column comes out zero
def test_function_returning_a_view_of_its_input(student, gen):
    """numeric_jacobian and check_gradients handle a function whose output is a view of its input (x.T[1:]):
    f(x + eps·e_j) is what fn returned then, not what the view shows after x changes again"""
    c = case("view", [0.0], [torch.randn(4, 3, generator=gen, dtype=torch.float64)])
    r = student.call("numeric_jac", family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                     eps=1e-6)
    want = judge_central(c, 1e-6)[0]
    what = f"numeric_jacobian(fn, [x], eps=1e-6) for {describe(c)}"
    jac = r["jac"]
    expect(isinstance(jac, list) and len(jac) == 1 and isinstance(jac[0], torch.Tensor),
           f"{what}: expected a list holding one tensor, got {type(jac).__name__}")
    expect(tuple(jac[0].shape) == tuple(want.shape), f"{what}: expected shape {tuple(want.shape)}, got "
                                                     f"{tuple(jac[0].shape)}")
    expect_close(jac[0], want, f"{what} (the clause 'column j is (f(x + eps·e_j) - f(x - eps·e_j)) / (2·eps)': keep "
                               f"a copy of each output, since a view of x changes when x is perturbed again)",
                 atol=1e-8, rtol=1e-7)
    expect_verdict(student, c)


# check_gradients asking autograd for the rows of an output that requires no gradient raises ("element 0 of
# tensors does not require grad"); gradcheck accepts: every row is zero on both sides
# And the zero rows are still compared: returning True at once for an output that requires no gradient ("nothing for
# backward to get wrong") accepts f = 2 sin(y) + c·sum(x.detach()), whose central differences in x are c, which
# gradcheck rejects.
def test_output_that_no_checked_input_reaches(student, gen):
    """check_gradients accepts a function whose output no checked input reaches (every analytic row is zero), as
    gradcheck does, and rejects one whose output depends on x through x.detach() (zero rows, nonzero differences)"""
    leak = signed(gen, 0.5, 2.0)
    for d in ([0.0], [leak]) if coin(gen) else ([leak], [0.0]):
        c = case("ignores", d, smooth_inputs(gen), needs=TF)
        assert judge_verdict(c) is (d[0] == 0.0), "judge: gradcheck accepts exactly the case without the detached term"
        expect_verdict(student, c, clause="" if d[0] == 0.0 else
                       " (the clause 'where no gradient flows, the row is zero': the zero rows are compared with the "
                       "central differences like any others)")


# check_gradients stacking its analytic rows (torch.stack(rows)) raises for an output with no elements: there is no
# row to stack. gradcheck accepts: no entry can disagree
def test_output_with_no_elements(student, gen):
    """check_gradients accepts a function whose output has no elements (no row, so no entry to disagree), as
    gradcheck does"""
    n = int(torch.randint(2, 6, (1,), generator=gen))
    c = case("view", [0.0], [torch.randn(n, 1, generator=gen, dtype=torch.float64)],
             note=f" (x of shape ({n}, 1), so the output x.T[1:] has shape (0, {n}): no elements)")
    assert judge_verdict(c) is True, "judge: gradcheck accepts an output with no elements"
    expect_verdict(student, c, want=True, clause=" (one row per output element: none here, and every entry of an "
                                                  "empty Jacobian satisfies the test)")


def judge_verdict_aliased(c, alias):
    """gradcheck's verdict with fn's k-th argument the leaf built for inputs[alias[k]] (one object at two places)."""
    xs = leaves(c["inputs"], c["needs"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.autograd.gradcheck(grad_function(c["family"], c["defect"]), tuple(xs[i] for i in alias),
                                        raise_exception=False)


# numeric_jacobian perturbing the caller's tensor in place (as gradcheck does) with check_gradients' analytic rows
# taken on separate copies of each argument: for fn(a, a, b) the numeric side holds the total derivative through both
# uses of a and the analytic side one use only, and a correct function is rejected. Either way is right if both sides
# take the same one; the defects drawn here (x's and z's gradient scaled) are wrong either way.
def test_verdict_same_tensor_twice(student, gen):
    """check_gradients agrees with gradcheck when one tensor object is passed at two positions (fn(a, a, b) for
    f(x, y, z) = x*y + z²): correct and wrong gradients alike"""
    a, b = (torch.randn(2, 3, generator=gen, dtype=torch.float64) for _ in range(2))
    plan = [(0.0, 0.0), (signed(gen, 0.05, 0.2), 0.0), (0.0, signed(gen, 0.05, 0.2))]
    plan.append(plan[int(torch.randint(0, 3, (), generator=gen))])
    alias = [0, 0, 2]
    for k in torch.randperm(len(plan), generator=gen).tolist():
        sx, sz = plan[k]
        c = three_case(gen, (sx, 0.0, sz))
        c["inputs"] = [a, a, b]
        want = judge_verdict_aliased(c, alias)
        assert want is (sx == 0.0 and sz == 0.0), "judge: the drawn defects decide"
        r = student.call("verdict", family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                         kwargs={}, catch=True, alias=alias)
        what = (f"check_gradients(fn, (a, a, b)) for {describe(c)}, where x and y are one tensor object a (the "
                f"same leaf passed twice)")
        if r.get("error"):
            fail(f"{what} raised {r['error']}; torch.autograd.gradcheck(fn, (a, a, b)) says {want}")
        expect(r["type"] == "bool", f"{what} returned a {r['type']}, expected a Python bool")
        expect(r["verdict"] is want, f"{what} returned {r['verdict']}; torch.autograd.gradcheck(fn, (a, a, b)) says "
                                     f"{want} (its verdict must agree with gradcheck's: the numeric and the analytic "
                                     f"Jacobian must treat the two uses of a alike, e.g. both on separate copies of "
                                     f"each argument, or both on the tensor itself)")


def test_written_from_scratch(student, gen):
    """numeric_jacobian and check_gradients compute their own answers: neither calls into torch.autograd.gradcheck,
    the yardstick the checks compare with"""
    c = smooth(gen)
    for probe, extra in [("numeric_jac", {"eps": 1e-6}), ("verdict", {"kwargs": {}})]:
        r = student.call(probe, family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                         watch=True, **extra)
        name = "numeric_jacobian" if probe == "numeric_jac" else "check_gradients"
        expect(not r["yardstick"], f"{name}(fn, inputs) called torch.autograd.gradcheck's "
                                   f"{', '.join(r['yardstick'][:3])}: the text asks for both written from scratch "
                                   f"(gradcheck is the yardstick your verdicts are compared with)")


def test_inputs_left_unchanged(student, gen):
    """numeric_jacobian and check_gradients leave the input tensors' values unchanged"""
    c = smooth(gen)
    for probe, extra in [("numeric_jac", {"eps": 1e-3}), ("verdict", {"kwargs": {"eps": 1e-3}})]:
        r = student.call(probe, family=c["family"], defect=c["defect"], inputs=c["inputs"], needs=c["needs"],
                         **extra)
        name = "numeric_jacobian" if probe == "numeric_jac" else "check_gradients"
        expect(len(r["inputs_after"]) == len(c["inputs"]), f"{name}: the probe sent back {len(r['inputs_after'])} "
                                                            f"inputs for {len(c['inputs'])}")
        for k, (after, before) in enumerate(zip(r["inputs_after"], c["inputs"])):
            expect_equal(after, before, f"input {k} after {name}(fn, inputs, eps=1e-3) (it must not change)")
