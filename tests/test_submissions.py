"""Every example submission gets the verdict its spec expects, per task.

Specs live in tests/submissions/<assignment>/<name>.py (see course/grading/class_run/submissions.py).
This is where each suite proves that it rejects known-wrong answers and accepts correct
answers written differently. All specs of one assignment are judged in one run.
"""
import functools
import json
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


def _judge_names(tree) -> dict[str, str]:
    """The names a module imports from the judge's parts (the input strategies and the worker's warning
    filters left out: they make inputs in the judge, which a submission cannot reach), each with its part."""
    import ast
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("course.judge.") and \
                n.module not in ("course.judge.strategies", "course.judge.worker"):
            out.update({a.asname or a.name: f"{n.module}.{a.name}" for a in n.names})
    return out


def _parts_in(node, names: dict[str, str]) -> set[str]:
    """The judge's parts ``node`` uses: names imported from them, and ``student.X`` calls."""
    import ast
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            found.add(names[n.id])
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "student":
            found.add(f"student.{n.attr}")
    return found


def _strings_in(node) -> set[str]:
    import ast
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


@functools.lru_cache(maxsize=None)
def machinery_by_task(assignment: str) -> dict[str, set[str]]:
    """Per task of a topic's hidden suite, the parts of the judge its checks rely on, which the generic attacks
    aim at (the comparisons of course.judge.expect, the probes of course.judge.probelib that carry values out
    of the submission's worker, the judge's adapter and plugin, and ``student.X`` calls): what its test files use, what the helper modules they load use, and what each probe they name (a probe is
    called by its name, a string: ``student.call("run_worlds", ...)``) uses, with the probe's own helpers
    in its module. A file's parts count for every task it marks."""
    import ast
    import re
    from course import TESTS_DIR
    files = sorted((TESTS_DIR / assignment).glob("*.py"))
    trees = {f: ast.parse(f.read_text()) for f in files}
    helpers = {f: trees[f] for f in files if not f.name.startswith("test_")}
    funcs = {}  # a helper module's top-level function -> (its parts, the names it calls or mentions)
    for f, tree in helpers.items():
        names = _judge_names(tree)
        for d in tree.body:
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
                refs = {n.id for n in ast.walk(d) if isinstance(n, ast.Name)} | _strings_in(d)
                funcs[d.name] = (_parts_in(d, names), refs)

    def probe_parts(start: set[str]) -> set[str]:
        seen, todo, parts = set(), [x for x in start if x in funcs], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            p, refs = funcs[name]
            parts |= p
            todo += [r for r in refs if r in funcs and r not in seen]
        return parts

    out: dict[str, set[str]] = {}
    for f, tree in trees.items():
        if f in helpers:
            continue
        text, strings = f.read_text(), _strings_in(tree)
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | \
            {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        parts = _parts_in(tree, _judge_names(tree)) | probe_parts(strings)
        for h, htree in helpers.items():
            if h.name in strings or h.stem in imported:  # a helper module it loads (by file name or import)
                parts |= _parts_in(htree, _judge_names(htree)) | probe_parts(_strings_in(htree))
        for task in re.findall(r"""mark\.task\(\s*["']([^"']+)["']""", text):
            out.setdefault(task, set()).update(parts)
    return out


def generic_plan(topics: list[str], attacked: str | None = None) -> dict[str, list[str] | None]:
    """Where the generic attacks are judged: the fewest (topic, task) pairs, chosen greedily, whose checks
    between them use every part of the judge that any topic's checks use (machinery_by_task); per topic,
    its chosen tasks (None: all of them). An attack on the reply protocol or the comparisons meets the same
    code in every check that uses the same parts, so judging it on every task of every topic paid the same
    verdict over and over (the costliest suites, 15-05, 15-08 and 16-04, are chosen for a part or two each);
    a pair that brings a new part is chosen, one on a topic already chosen first among equals (a topic
    costs a judge session a notebook). The parts ``attacked``'s suite uses count as met: the hostile batch
    grades every generic notebook on that topic through the whole pipeline (tests/test_hostile.py), so
    judging them there again paid twice."""
    need = {(a, t): parts for a in topics for t, parts in machinery_by_task(a).items()}
    left = set().union(*need.values()) if need else set()
    if attacked in topics:
        left -= set().union(set(), *(p for (a, _), p in need.items() if a == attacked))
    plan: dict[str, list[str] | None] = {}
    while left:
        best = min(need, key=lambda at: (-len(need[at] & left), at[0] not in plan, at))
        if not need[best] & left:
            break
        plan.setdefault(best[0], []).append(best[1])
        left -= need[best]
    if not plan and attacked not in topics and topics:
        plan = {topics[0]: None}
    return {a: sorted(plan[a]) if plan[a] else None for a in sorted(plan)}


def generic_topics(topics: list[str], attacked: str | None = None) -> list[str]:
    """The topics of generic_plan."""
    return list(generic_plan(topics, attacked))


# COURSE_VERDICT_GENERIC=all (make test-suites): the generic attacks on every task of every topic, as before.
# Else the ones the hostile batch grades (through the pipeline, on hostile_topic()) on the cover of the other
# topics' parts, and the ones it leaves to the verdicts (JUDGE_ALL: forged replies, an attack on the judge's
# worker alone) on the whole cover.
GENERIC_ALL = _os.environ.get("COURSE_VERDICT_GENERIC") == "all"
GENERIC_ON = {a: None for a in graded_topics()} if GENERIC_ALL else \
    generic_plan(graded_topics(), attacked=hostile_topic())
JUDGE_ONLY_ON = {a: None for a in graded_topics()} if GENERIC_ALL else generic_plan(graded_topics())


def generic_on(spec: Path) -> dict[str, list[str] | None]:
    """The topics whose verdict run judges the generic spec ``spec``, each with the tasks it is judged on
    (None: every task)."""
    return JUDGE_ONLY_ON if submissions.load_spec(spec).get("JUDGE_ALL") else GENERIC_ON


# Every known-wrong example must fail under each of these seeds (the run's seed and SEEDS-1 derived).
# `make seeds ID=15-05 N=30 [ONLY=wrong_tie]` sweeps more of them (a benchmark: minutes per topic).
SEEDS = int(_os.environ.get("COURSE_VERDICT_SEEDS", "2"))
ONLY = _os.environ.get("COURSE_VERDICT_ONLY", "")  # judge only the specs whose name contains this
# The run's seed: fixed in `make test` (COURSE_VERDICT_SEED), so that CI judges the same inputs every time and a
# red run is the code's, not the draw's; unset, a fresh one each run. `make seeds` sweeps many.
SEED = int(_os.environ["COURSE_VERDICT_SEED"]) if _os.environ.get("COURSE_VERDICT_SEED") else None


# The checks that caught each known-wrong example last time (tests/submissions/<id>/verdict_order.json, written by
# `make verdict-order`): run first for it, so that a "fail" verdict, which needs one failing check per seed and
# skips the rest of the task after it (first_failure), costs that one check instead of every check before it in
# file order (about half of a topic's check time). An order only: a hint that no longer catches the example
# (a check renamed, a new example, other inputs) costs nothing but the time saved, and the verdict is the same.
ORDER_FILE = "verdict_order.json"
RECORD_ORDER = _os.environ.get("COURSE_VERDICT_RECORD_ORDER") == "1"


def order_hints(assignment: str) -> dict[str, list[str]]:
    f = submissions.SPECS_DIR / assignment / ORDER_FILE
    return json.loads(f.read_text()) if f.exists() else {}


def record_order(assignment: str, judged: dict[str, dict], res) -> None:
    """Write, for each known-wrong notebook judged (its stem -> spec), the first check that failed per task it
    must fail and per seed; entries of the examples not judged this run are kept if they still exist."""
    from course.judge.pytest_plugin import check_order_key
    keep = {f"{p.parent.name.strip('_')}-{p.stem}" for p in graded_specs(assignment) + GENERIC}
    hints = {k: v for k, v in order_hints(assignment).items() if k in keep and k not in judged}
    for stem, (nb, spec) in judged.items():
        fail_tasks = {t for t, v in spec.get("EXPECT", {}).items() if v == "fail"}
        first: dict = {}
        for c in res.for_notebook(nb):
            if c.failed and c.task in fail_tasks:
                first.setdefault((c.task, c.seed), check_order_key(c.nodeid))
        if first:
            hints[stem] = sorted(set(first.values()))
    f = submissions.SPECS_DIR / assignment / ORDER_FILE
    f.write_text(json.dumps(dict(sorted(hints.items())), indent=1) + "\n")


def known_wrong(spec: dict) -> bool:
    return any(v in ("fail", "zero") for v in (spec.get("EXPECT") or {}).values())


def judged_expectations(path, spec: dict) -> dict:
    """``spec`` with EXPECT cut to the tasks judged here. A known-wrong example is judged on the tasks it
    is meant to fail: its other tasks run the reference's own cells (every known-wrong spec changes only
    the cells of the tasks it breaks), and running them again for each example cost about a third of
    these runs. Whether a mistake in one task costs points in another is judged on each topic's
    ``partly_wrong`` example and any other spec with ``JUDGE_PASS = True``, on every task it lists.
    A correct example is judged on the tasks its cells can reach (tests/example_reach.py: the tasks whose cells
    it replaces, and those whose checks or cells read a name they define): on the others it is the reference,
    whose own run judges them (288 of the 1044 (example, task) pairs of correct examples, 2026-12-05)."""
    if spec.get("JUDGE_PASS") or spec.get("APPEND") or "mutate" in spec:  # code beyond solution cells: judged everywhere
        return spec
    if not known_wrong(spec):
        from tests.example_reach import tasks_reached
        reached = tasks_reached(path.parent.name, spec) if "EXPECT" in spec and path.parent.name in graded_topics() \
            else None
        if reached is None:
            return spec
        return {**spec, "EXPECT": {t: v for t, v in spec["EXPECT"].items() if t in reached}}
    return {**spec, "EXPECT": {t: v for t, v in spec["EXPECT"].items() if v != "pass"}}


def same_code(notebooks: list[Path]) -> dict[Path, Path]:
    """Each notebook -> the first of ``notebooks`` whose code (what the judge's worker runs:
    nbtools.submission_code) is the same. Kept examples written in different rounds are sometimes the same
    code (79 of 2567 on 2026-12-06); the judge's inputs depend on the seed and the check alone, so one run
    gives each of them its verdict."""
    import hashlib
    from course import notebook as nbtools
    first: dict[str, Path] = {}
    out = {}
    for nb in notebooks:
        code = "\n# -- next cell --\n".join(nbtools.submission_code(nbtools.read(nb)))
        out[nb] = first.setdefault(hashlib.sha256(code.encode()).hexdigest(), nb)
    return out


def fail_everywhere(specs: list[dict]) -> list[str]:
    """The tasks every one of ``specs`` expects to fail (where judging may stop at a task's first failure)."""
    sets = [{t for t, v in spec.get("EXPECT", {}).items() if v == "fail"} for spec in specs]
    return sorted(set.intersection(*sets)) if sets else []


def _met(plan: dict) -> set[str]:
    """The parts of the judge that the checks of a plan's (topic, tasks) use."""
    out = set()
    for a, tasks in plan.items():
        by_task = machinery_by_task(a)
        out |= set().union(set(), *(by_task[t] for t in (tasks or by_task)))
    return out


def test_generic_attacks_meet_every_part_of_the_judge():
    """The tasks the generic attacks are judged on use, between them, every part of the judge that any
    topic's checks use, so no part goes unattacked; and they are fewer than all tasks of all topics."""
    topics = graded_topics()
    plan = generic_plan(topics, attacked=hostile_topic())
    used = set().union(*(set().union(set(), *machinery_by_task(a).values()) for a in topics))
    met = _met({**plan, hostile_topic(): None})
    assert set(plan) <= set(topics) and hostile_topic() not in plan, plan
    assert "student.call" in used and any(m.startswith("course.judge.expect.") for m in used), used
    assert used <= met, f"parts of the judge no generic attack meets: {sorted(used - met)}"
    assert sum(len(t or machinery_by_task(a)) for a, t in plan.items()) < \
        sum(len(machinery_by_task(a)) for a in topics), plan
    # every task named is one of its topic's, and the parts each topic's suite uses are found per task
    for a in topics:
        by_task = machinery_by_task(a)
        assert set(plan.get(a) or ()) <= set(by_task), (a, plan.get(a), sorted(by_task))
        assert "student.call" in set().union(set(), *by_task.values()), (a, by_task)
    # a made-up task whose checks use one part no other does is chosen; one that adds nothing is not, and a
    # task on a topic already chosen goes first among equals
    import unittest.mock as mock
    fake = {"A": {"a1": {"x", "y"}, "a2": {"w"}}, "B": {"b": {"x", "w"}}, "C": {"c": {"z"}, "c2": {"x"}}}
    with mock.patch(__name__ + ".machinery_by_task", side_effect=fake.__getitem__):
        assert generic_plan(["A", "B", "C"]) == {"A": ["a1", "a2"], "C": ["c"]}
        assert generic_plan(["A", "B", "C"], attacked="C") == {"A": ["a1", "a2"]}  # C's parts: the batch's
        assert generic_plan(["A", "B", "C"], attacked="A") == {"C": ["c"]}
        assert generic_topics(["A", "B", "C"]) == ["A", "C"]
    # every generic notebook is judged on the hostile batch's topic: by the batch through the pipeline, or
    # (an attack on the judge's worker alone) by the verdicts; and on every part of the judge
    from tests import test_hostile
    batch = {spec.stem for _, _, a, spec, _ in test_hostile.PLAN if a == hostile_topic()}
    here = {p.stem for p in GENERIC if hostile_topic() in generic_on(p)}
    assert {p.stem for p in GENERIC} <= batch | here and not batch & here, (sorted(batch), sorted(here))
    for p in GENERIC:
        on = dict(generic_on(p))
        if p.stem in batch:
            on[hostile_topic()] = None  # the batch grades every task
        assert used <= _met(on), (p.stem, sorted(used - _met(on)))
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
        if not known_wrong(spec) or judged_expectations(p, spec) is spec:
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
        passed = [c.name for c in checks if c.passed and not c.penalty]  # a passed penalty check earns nothing
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
            elif want == "zero" and [c for c in passed if not c.penalty]:  # a passed penalty check earns nothing
                problems.append(f"{task} [seed {seed}]: expected none to pass, passed: "
                                f"{[c.name for c in passed if not c.penalty]}")
    return problems


def test_the_same_code_is_judged_once(tmp_path):
    """Notebooks whose code is the same (other markdown, other metadata) are judged as one; each spec still gets
    its own verdict from that run, and a task stops at its first failure only where every spec expects it to fail."""
    import nbformat
    from course import notebook as nbtools

    def nb(name, code, note=""):
        book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(note), nbformat.v4.new_code_cell(code)])
        path = tmp_path / f"{name}.ipynb"
        nbtools.write(book, path)
        return path
    a, b, c = nb("a", "x = 1"), nb("b", "x = 1", note="written in another round"), nb("c", "x = 2")
    assert same_code([a, b, c]) == {a: a, b: a, c: c}
    assert fail_everywhere([{"EXPECT": {"t": "fail", "u": "fail"}}, {"EXPECT": {"t": "fail", "u": "zero"}}]) == ["t"]
    assert fail_everywhere([{"EXPECT": {"t": "fail"}}, {"EXPECT": {"t": "pass"}}]) == []


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
    judged_as = same_code(notebooks)
    # each spec's verdict is read from the notebook judged for its code; that one is judged on every task any of
    # its specs names, under the most seeds, stopping early only on tasks every one of them calls "fail"
    specs_of = {}
    for nb, spec in zip(notebooks, specs):
        specs_of.setdefault(judged_as[nb], []).append(spec)
    judged = list(specs_of)
    # A topic spec is judged only on the tasks its EXPECT names; a generic spec on those generic_plan chose.
    tasks_of = {nb: [set(spec["EXPECT"]) if "EXPECT" in spec else None for spec in specs_of[nb]] for nb in judged}
    for (p, g), nb in zip(todo, notebooks):  # a generic spec on the tasks generic_plan chose here
        if g is not None and generic_on(p).get(assignment):
            tasks_of[judged_as[nb]] = [set(generic_on(p)[assignment]) if t is None else t
                                       for t in tasks_of[judged_as[nb]]]
    only = {str(nb): sorted(set().union(*ts)) for nb, ts in tasks_of.items() if None not in ts}
    seeds = {str(nb): (SEEDS, sorted({t for spec in specs_of[nb] if known_wrong(spec)
                                      for t, v in spec["EXPECT"].items() if v in ("fail", "zero")}))
             for nb in judged if any(known_wrong(spec) for spec in specs_of[nb])}
    # A "fail" verdict needs one failing check per seed: the rest of that task's checks are skipped.
    first = {str(nb): fail_everywhere(specs_of[nb]) for nb in judged
             if all(known_wrong(spec) for spec in specs_of[nb]) and fail_everywhere(specs_of[nb])}
    hints = order_hints(assignment)
    ahead = {str(nb): hints[nb.stem] for nb in judged if str(nb) in first and nb.stem in hints}
    res = run_suite(assignment, judged, sandbox="auto", seed=SEED, notebook_tasks=only, notebook_seeds=seeds,
                    first_failure=first, first_checks=ahead, use_server=True,
                    timeout=max(900, 12 * SEEDS * len(judged)))
    assert not res.error, res.error
    if RECORD_ORDER:
        record_order(assignment, {nb.stem: (str(nb), specs_of[nb][0]) for nb in judged if str(nb) in first}, res)
    report = []
    for (p, _), nb, spec in zip(todo, notebooks, specs):
        problems = verdict_problems(spec, res.for_notebook(str(judged_as[nb])))
        if problems:
            report.append(f"{p.parent.name}/{p.name}:\n  " + "\n  ".join(problems))
    assert not report, f"seed {res.seed}\n" + "\n".join(report)
