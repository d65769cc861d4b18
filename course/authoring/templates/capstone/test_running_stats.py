"""Hidden checks of RunningStats (exercise 1), against the judge's own statistics."""
import math

import pytest
import torch

from course.judge.expect import expect, expect_close, fail

pytestmark = pytest.mark.task("running_stats")
f64 = torch.float64


def chunks_for(gen):
    sizes = [3, 0, 1, 5, 2]  # an empty update and a single value are part of every run
    return [torch.randn(n, generator=gen, dtype=f64) * 4 + 1e3 for n in sizes]


def expected(chunks):
    out, seen = [], torch.empty(0, dtype=f64)
    for x in chunks:
        seen = torch.cat([seen, x])
        out.append((seen.mean().item(), seen.var(unbiased=False).item()) if len(seen) else (math.nan, math.nan))
    return out


def close(got, exp: float, what: str, atol: float, rtol: float = 0.0) -> None:
    expect(isinstance(got, (int, float)) and not isinstance(got, bool), f"{what} returned {got!r}, not a number")
    expect_close(torch.tensor(float(got), dtype=f64), torch.tensor(exp, dtype=f64), what, atol=atol, rtol=rtol)


def run(student, chunks, resume_after=None):
    res = student.call("stats_run", chunks=chunks, resume_after=resume_after)
    if "error" in res:
        fail(res["error"])
    return res


def test_matches_judge(student, gen):
    """mean() and var() are the mean and population variance of everything seen so far"""
    chunks = chunks_for(gen)
    res = run(student, chunks)
    for i, (m, v) in enumerate(expected(chunks)):
        what = f"after updates with {[len(c) for c in chunks[:i + 1]]} values"
        expect(isinstance(res["mean"][i], float) and isinstance(res["var"][i], float),
               f"mean() and var() {what} returned {res['mean'][i]!r} and {res['var'][i]!r}, not Python floats")
        close(res["mean"][i], m, f"mean() {what}", atol=1e-9, rtol=1e-12)
        close(res["var"][i], v, f"var() {what} (population variance, divided by n)", atol=1e-7, rtol=1e-9)


def test_empty_is_nan(student, gen):
    """mean() and var() are nan (a float) before any value"""
    res = run(student, [torch.empty(0, dtype=f64)])
    for name, got in zip(("mean()", "var()"), res["empty"]):
        expect(isinstance(got, float) and math.isnan(got), f"{name} of a new RunningStats returned {got!r}, not nan")
    for name, got in (("mean()", res["mean"][0]), ("var()", res["var"][0])):
        expect(isinstance(got, float) and math.isnan(got), f"{name} after update(empty tensor) returned {got!r}, not nan")


@pytest.mark.parametrize("point", range(5))
def test_resume_at_every_point(student, gen, point):
    """state_dict() is plain numbers, and a fresh object loaded from it continues exactly"""
    chunks = chunks_for(gen)
    res = run(student, chunks, resume_after=point)
    expect(res["state_plain"] is True, f"state_dict() after update {point + 1} holds something other than "
                                       "plain numbers (str keys; int, float, bool values)")
    for i, (m, v) in enumerate(expected(chunks)):
        if i <= point:
            continue
        what = f"after a resume following update {point + 1}, then {i - point} more update(s)"
        close(res["mean"][i], m, f"mean() {what}", atol=1e-9, rtol=1e-12)
        close(res["var"][i], v, f"var() {what}", atol=1e-7, rtol=1e-9)


def test_instances_independent(student, gen):
    """two RunningStats objects never share state"""
    xs = [torch.randn(3, generator=gen, dtype=f64) for _ in range(3)]
    ys = [torch.randn(2, generator=gen, dtype=f64) + 10 for _ in range(3)]
    res = student.call("two_objects", xs=xs, ys=ys)
    close(res["a"], torch.cat(xs).mean().item(), "mean() of the first of two objects fed in turn", atol=1e-9)
    close(res["b"], torch.cat(ys).mean().item(), "mean() of the second of two objects fed in turn", atol=1e-9)
    expect(isinstance(res["fresh"], float) and math.isnan(res["fresh"]),
           f"mean() of a third, new object returned {res['fresh']!r}, not nan (state shared between objects?)")
