"""Every example submission gets the verdict its spec expects, per task.

Specs live in tests/submissions/<assignment>/<name>.py (see course/grading/class_run/submissions.py).
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

from course.judge.results import Check
from course.judge.suite import run_suite
from course.grading.class_run import submissions
from tests.pipeline_run import graded_topics, hostile_topic  # a topic with source/<id>/ and tests/<id>/ joins the verdicts


def graded_specs(assignment):
    out = []
    for p in submissions.specs(assignment):
        spec = submissions.load_spec(p)
        if "RAW" not in spec and spec.get("EXPECT"):
            out.append(p)
    return out


GENERIC = [p for kind in ("hostile", "honest") for p in submissions.generic_specs(kind)
           if p.stem in ("read_solutions", "tamper_kernel", "noisy_reference")
           or submissions.load_spec(p).get("JUDGE_ALL")]


def judging_machinery(assignment: str) -> set[str]:
    """The parts of the judge a topic's hidden suite relies on, which the generic attacks aim at: the names
    it imports from the comparisons (course.judge.expect), the probes that carry values out of the
    submission's worker (course.judge.probelib) and the judge's adapter and plugin, and the ``student.X``
    calls it makes. The input strategies and the worker's warning filters are left out: they make inputs in
    the judge, which a submission cannot reach."""
    import ast
    from course import TESTS_DIR
    found = set()
    for f in sorted((TESTS_DIR / assignment).glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text())):
            if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("course.judge.") and \
                    n.module not in ("course.judge.strategies", "course.judge.worker"):
                found |= {f"{n.module}.{a.name}" for a in n.names}
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "student":
                found.add(f"student.{n.attr}")
    return found


def generic_topics(topics: list[str], attacked: str | None = None) -> list[str]:
    """The fewest topics (greedily) whose suites between them use every part of the judge any topic uses:
    the generic attacks are judged on these. An attack on the reply protocol or the comparisons meets the
    same code in every topic that uses the same parts, so judging it on all of them paid the same
    verdict over again (7 full-suite runs a topic); a topic that brings a new part is chosen. The parts
    ``attacked``'s suite uses count as met: the hostile batch grades every generic notebook on that topic
    through the whole pipeline (tests/test_hostile.py), so judging them there again paid twice."""
    need = {a: judging_machinery(a) for a in topics}
    left, chosen = set().union(*need.values()) if need else set(), []
    if attacked in need:
        left -= need[attacked]
    while left:
        best = max(topics, key=lambda a: (len(need[a] & left), a))
        chosen.append(best)
        left -= need[best]
    return sorted(chosen) if attacked in need else (sorted(chosen) or topics[:1])


# COURSE_VERDICT_GENERIC=all (make test-suites): the generic attacks on every topic, as before. Else the ones
# the hostile batch grades (through the pipeline, on hostile_topic()) on the cover of the other topics' parts,
# and the ones it leaves to the verdicts (JUDGE_ALL: forged replies, an attack on the judge's worker alone)
# on the whole cover.
GENERIC_ALL = _os.environ.get("COURSE_VERDICT_GENERIC") == "all"
GENERIC_ON = graded_topics() if GENERIC_ALL else generic_topics(graded_topics(), attacked=hostile_topic())
JUDGE_ONLY_ON = graded_topics() if GENERIC_ALL else generic_topics(graded_topics())


def generic_on(spec: Path) -> list[str]:
    """The topics whose verdict run judges the generic spec ``spec``."""
    return JUDGE_ONLY_ON if submissions.load_spec(spec).get("JUDGE_ALL") else GENERIC_ON


# Every known-wrong example must fail under each of these seeds (the run's seed and SEEDS-1 derived).
# `make seeds ID=15-05 N=30 [ONLY=wrong_tie]` sweeps more of them (a benchmark: minutes per topic).
SEEDS = int(_os.environ.get("COURSE_VERDICT_SEEDS", "2"))
ONLY = _os.environ.get("COURSE_VERDICT_ONLY", "")  # judge only the specs whose name contains this


def known_wrong(spec: dict) -> bool:
    return any(v in ("fail", "zero") for v in (spec.get("EXPECT") or {}).values())


def judged_expectations(path, spec: dict) -> dict:
    """``spec`` with EXPECT cut to the tasks judged here. A known-wrong example is judged on the tasks it
    is meant to fail: its other tasks run the reference's own cells (every known-wrong spec changes only
    the cells of the tasks it breaks), and running them again for each example cost about a third of
    these runs. Whether a mistake in one task costs points in another is judged on each topic's
    ``partly_wrong`` example and any other spec with ``JUDGE_PASS = True``, on every task it lists."""
    if not known_wrong(spec) or spec.get("JUDGE_PASS") or \
            spec.get("APPEND") or "mutate" in spec:  # code beyond solution cells: judged everywhere
        return spec
    return {**spec, "EXPECT": {t: v for t, v in spec["EXPECT"].items() if v != "pass"}}


def test_generic_attacks_meet_every_part_of_the_judge():
    """The topics the generic attacks are judged on use, between them, every part of the judge that any
    topic's suite uses, so no part goes unattacked; and they are fewer than all topics when some topics
    add nothing new."""
    topics = graded_topics()
    chosen = generic_topics(topics, attacked=hostile_topic())
    used = set().union(*(judging_machinery(a) for a in topics))
    met = set().union(*(judging_machinery(a) for a in chosen + [hostile_topic()]))
    assert set(chosen) <= set(topics) and hostile_topic() not in chosen, chosen
    assert "student.call" in used and any(m.startswith("course.judge.expect.") for m in used), used
    assert used <= met, f"parts of the judge no generic attack meets: {sorted(used - met)}"
    # a made-up topic whose suite uses one part no other does is chosen; one that adds nothing is not
    import unittest.mock as mock
    fake = {"A": {"x", "y", "w"}, "B": {"x"}, "C": {"z"}}
    with mock.patch(__name__ + ".judging_machinery", side_effect=fake.__getitem__):
        assert generic_topics(["A", "B", "C"]) == ["A", "C"]
        assert generic_topics(["A", "B", "C"], attacked="C") == ["A"]  # C's parts: the hostile batch's
        assert generic_topics(["A", "B", "C"], attacked="A") == ["C"]
    # every generic notebook is judged on the hostile batch's topic: by the batch through the pipeline, or
    # (an attack on the judge's worker alone) by the verdicts; and on every part of the judge
    from tests import test_hostile
    batch = {spec.stem for _, _, a, spec, _ in test_hostile.PLAN if a == hostile_topic()}
    here = {p.stem for p in GENERIC if hostile_topic() in generic_on(p)}
    assert {p.stem for p in GENERIC} <= batch | here and not batch & here, (sorted(batch), sorted(here))
    for p in GENERIC:
        met_by_p = set(generic_on(p)) | ({hostile_topic()} if p.stem in batch else set())
        assert used <= set().union(*(judging_machinery(a) for a in met_by_p)), p.stem
    forged = [p.stem for p in GENERIC if submissions.load_spec(p).get("JUDGE_ALL")]
    assert forged and not set(forged) & batch, forged  # the forged replies: judged, not graded with a kernel


@pytest.mark.parametrize("assignment", graded_topics())
def test_known_wrong_examples_change_only_the_tasks_they_break(assignment):
    """What judged_expectations relies on: no known-wrong spec changes a cell of a task it expects to pass
    (else that expectation would go unjudged), and partly_wrong is judged on its passing tasks."""
    from course import notebook as nbtools
    from course.authoring.mutants import tasks_of_cells
    from course import SOURCE_DIR
    task_of = tasks_of_cells(nbtools.read(nbtools.first_in(SOURCE_DIR / assignment)))
    wrong = []
    for p in graded_specs(assignment):
        spec = submissions.load_spec(p)
        if p.stem == "partly_wrong" and not spec.get("JUDGE_PASS"):
            wrong.append(f"{p.name}: the pipeline's ex-partly-wrong example must set JUDGE_PASS = True (points "
                         f"lost in one task and kept in the others are judged on it)")
        if judged_expectations(p, spec) is spec:
            continue
        passing = {t for t, v in spec["EXPECT"].items() if v == "pass"}
        wrong += [f"{p.name}: cell {g} ({task_of.get(g)})" for g in spec.get("CELLS", {})
                  if task_of.get(g) in passing or task_of.get(g) is None]  # None: a cell no task owns
    assert not wrong, f"known-wrong specs change cells of tasks they expect to pass (add JUDGE_PASS = True): {wrong}"


def verdict_problems(spec: dict, checks: list[Check]) -> list[str]:
    checks = [c for c in checks if not c.skipped]
    if not checks:
        return ["no check ran"]
    if "EXPECT_TOTAL" in spec:  # generic specs: hostile ones earn nothing, honest ones everything
        passed = [c.name for c in checks if c.passed]
        failed = [f"{c.name}: {c.message}" for c in checks if c.failed]
        if spec["EXPECT_TOTAL"] == 0 and passed:
            return [f"hostile submission passed {passed}"]
        if spec["EXPECT_TOTAL"] == "full" and failed:
            return [f"honest submission failed {failed}"]
        return []
    by_task = {}
    for c in checks:
        by_task.setdefault(c.task, {}).setdefault(c.seed, []).append(c)
    problems = []
    for task, want in spec["EXPECT"].items():
        runs = by_task.get(task, {})
        if not runs:
            problems.append(f"{task}: no check ran")
        for seed, ran in sorted(runs.items(), key=lambda kv: str(kv[0])):
            passed = [c for c in ran if c.passed]
            if want == "pass" and len(passed) != len(ran):
                problems.append(f"{task} [seed {seed}]: expected all to pass, failed: " +
                                "; ".join(f"{c.name}: {c.message}" for c in ran if c.failed))
            elif want == "fail" and len(passed) == len(ran):
                problems.append(f"{task} [seed {seed}]: expected at least one failure, all {len(ran)} passed")
            elif want == "zero" and passed:
                problems.append(f"{task} [seed {seed}]: expected none to pass, passed: {[c.name for c in passed]}")
    return problems


def test_verdicts_are_judged_per_seed():
    """A wrong answer caught under one seed but not another is reported with the seed that missed it."""
    spec = {"EXPECT": {"t": "fail", "u": "pass"}}
    check = lambda task, seed, status, name, message="": Check(  # noqa: E731
        nodeid=name, name=name, title=name, task=task, status=status, message=message, seed=seed)
    checks = [check("t", 1, "failed", "a", "m"), check("t", 2, "passed", "a"), check("u", 1, "passed", "b")]
    assert verdict_problems(spec, checks) == ["t [seed 2]: expected at least one failure, all 1 passed"]
    checks[1] = check("t", 2, "failed", "a", "m")
    assert verdict_problems(spec, checks) == []


@pytest.fixture(scope="session")
def verdict_template():
    """One sandbox template per test process, as each grading worker has (course/sandbox/template.py), started
    by the first verdict run and kept to the end: each verdict run's worker zygote is forked from it, torch
    already imported, instead of importing torch in a fresh bubblewrap sandbox (about 5 s of CPU a topic; the
    template costs about 8 s once). None where there is none (not root): bubblewrap as before."""
    from course.sandbox import template
    try:
        made = template.Template() if template.wanted() else None
    except template.TemplateError:
        made = None
    yield made
    if made is not None:
        made.close()


@pytest.fixture
def sandbox_template(verdict_template, monkeypatch):
    """The template named to the judge for this test only (other tests' sandboxes stay as they would be)."""
    if verdict_template is not None:
        for k, v in verdict_template.env().items():
            monkeypatch.setenv(k, v)
    return verdict_template


@pytest.mark.parametrize("assignment", graded_topics())
def test_example_submission_verdicts(assignment, tmp_path, sandbox_template):
    """Each topic's wrong and unusual-but-correct examples, plus the generic attacks on the checks
    (reading solutions, patching comparisons) and a noisy correct answer, judged in one run; every
    known-wrong example under SEEDS seeds, each of which must catch it, on the tasks it is meant to fail
    (see judged_expectations)."""
    todo = [(p, None) for p in graded_specs(assignment)] + \
        [(p, assignment) for p in GENERIC if assignment in generic_on(p)]
    todo = [(p, g) for p, g in todo if ONLY in p.stem]
    notebooks, specs = [], []
    for p, generic_for in todo:
        nb = tmp_path / f"{p.parent.name.strip('_')}-{p.stem}.ipynb"
        specs.append(judged_expectations(p, submissions.write(p, nb, assignment=generic_for)))
        notebooks.append(nb)
    # A topic spec is judged only on the tasks its EXPECT names; generic specs on every task.
    only = {str(nb): list(spec["EXPECT"]) for nb, spec in zip(notebooks, specs) if "EXPECT" in spec}
    seeds = {str(nb): (SEEDS, [t for t, v in spec["EXPECT"].items() if v in ("fail", "zero")])
             for nb, spec in zip(notebooks, specs) if known_wrong(spec)}
    # A "fail" verdict needs one failing check per seed: the rest of that task's checks are skipped.
    first = {str(nb): [t for t, v in spec["EXPECT"].items() if v == "fail"]
             for nb, spec in zip(notebooks, specs) if known_wrong(spec)}
    res = run_suite(assignment, notebooks, sandbox="auto", notebook_tasks=only, notebook_seeds=seeds,
                    first_failure=first, use_server=True, timeout=max(900, 12 * SEEDS * len(notebooks)))
    assert not res.error, res.error
    report = []
    for (p, _), nb, spec in zip(todo, notebooks, specs):
        problems = verdict_problems(spec, res.for_notebook(str(nb)))
        if problems:
            report.append(f"{p.parent.name}/{p.name}:\n  " + "\n  ".join(problems))
    assert not report, f"seed {res.seed}\n" + "\n".join(report)
