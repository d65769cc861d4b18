"""Every example submission gets the verdict its spec expects, per task.

Specs live in tests/submissions/<assignment>/<name>.py (see course/grading/submissions.py).
This is where each suite proves that it rejects known-wrong answers and accepts correct
answers written differently. All specs of one assignment are judged in one run.
"""
from pathlib import Path

import pytest

import os as _os

import torch as _torch

if not _torch.cuda.is_available():
    # Instructor CI on a CPU machine: GPU-marked checks are graded as skipped (and say so).
    _os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course.check import run_suite
from course.build import assignments
from course.grading import submissions


def graded_specs(assignment):
    out = []
    for p in submissions.specs(assignment):
        spec = submissions.load_spec(p)
        if "RAW" not in spec and spec.get("EXPECT"):
            out.append(p)
    return out


ASSIGNMENTS = sorted({p.parent.name for p in submissions.specs()})


def verdict_problems(spec: dict, checks: list) -> list[str]:
    by_task = {}
    for c in checks:
        by_task.setdefault(c["task"], []).append(c)
    problems = []
    for task, want in spec["EXPECT"].items():
        ran = [c for c in by_task.get(task, []) if c["status"] != "skipped"]
        passed = [c for c in ran if c["status"] == "passed"]
        if not ran:
            problems.append(f"{task}: no check ran")
        elif want == "pass" and len(passed) != len(ran):
            problems.append(f"{task}: expected all to pass, failed: " +
                            "; ".join(f"{c['name']}: {c['message']}" for c in ran if c["status"] == "failed"))
        elif want == "fail" and len(passed) == len(ran):
            problems.append(f"{task}: expected at least one failure, all {len(ran)} passed")
        elif want == "zero" and passed:
            problems.append(f"{task}: expected none to pass, passed: {[c['name'] for c in passed]}")
    return problems


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_example_submission_verdicts(assignment, tmp_path):
    paths = graded_specs(assignment)
    if not paths:
        pytest.skip(f"no example submissions for {assignment}")
    notebooks, specs = [], []
    for i, p in enumerate(paths):
        nb = tmp_path / f"{p.stem}.ipynb"
        specs.append(submissions.write(p, nb))
        notebooks.append(nb)
    res = run_suite(assignment, notebooks, sandbox="auto")
    assert not res.get("error"), res.get("error")
    report = []
    for p, nb, spec in zip(paths, notebooks, specs):
        checks = [c for c in res["checks"] if c.get("notebook") in (str(nb), None if len(paths) == 1 else "-")]
        problems = verdict_problems(spec, checks)
        if problems:
            report.append(f"{p.name}:\n  " + "\n  ".join(problems))
    assert not report, f"seed {res['seed']}\n" + "\n".join(report)


GENERIC = [p for kind in ("hostile", "honest") for p in submissions.generic_specs(kind)
           if p.stem in ("read_solutions", "tamper_kernel", "noisy_reference")]


@pytest.mark.parametrize("assignment", assignments())
def test_generic_submissions(assignment, tmp_path):
    """Attacks on the checks score zero and a noisy correct answer full marks, in every assignment."""
    notebooks = []
    for p in GENERIC:
        nb = tmp_path / f"{p.stem}.ipynb"
        submissions.write(p, nb, assignment=assignment)
        notebooks.append((p, nb, submissions.load_spec(p)["EXPECT_TOTAL"]))
    res = run_suite(assignment, [nb for _, nb, _ in notebooks], sandbox="auto")
    assert not res.get("error"), res.get("error")
    report = []
    for p, nb, want in notebooks:
        checks = [c for c in res["checks"] if c.get("notebook") == str(nb) and c["status"] != "skipped"]
        passed = [c["name"] for c in checks if c["status"] == "passed"]
        failed = [f"{c['name']}: {c['message']}" for c in checks if c["status"] == "failed"]
        if not checks:
            report.append(f"{p.stem}: no check ran")
        elif want == 0 and passed:
            report.append(f"{p.stem}: hostile submission passed {passed}")
        elif want == "full" and failed:
            report.append(f"{p.stem}: honest submission failed {failed}")
    assert not report, f"seed {res['seed']}\n" + "\n".join(report)
