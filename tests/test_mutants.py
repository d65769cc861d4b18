"""The mutation tool (course/authoring/mutants.py) itself: the reference survives its own checks, a plain
wrong answer is killed, equivalents are read only from their section; and every topic's recorded
mutation score meets the bar."""
import json
import os
import re
import subprocess
import sys

import pytest

from course import REPO_ROOT, SOURCE_DIR, TESTS_DIR
from course import assignments
from course import notebook as nbtools
from course.authoring.mutants import MISTAKE, MISTAKES_HEAD, equivalents, mutants

A = "15-01"


def _cells(replace: dict | None = None) -> list[str]:
    nb = nbtools.read(next((SOURCE_DIR / A).glob("*.ipynb")))
    out = []
    for c in nb.cells:
        if c.cell_type == "code" and not nbtools.is_test_cell(c):
            out.append((replace or {}).get(nbtools.nbgrader_meta(c).get("grade_id"), c.source))
    return out


def _judge_fresh(cells: list[str]) -> tuple[str, str]:
    """_judge forks its caller, as `make mutants` does from a process that has run no autograd. A
    pytest worker may have run backward() in an earlier test, and autograd refuses to work in a fork
    of such a process, so the judging here starts from a fresh interpreter."""
    code = ("import json, sys; from course.authoring.mutants import _judge; "
            f"print(json.dumps(_judge({A!r}, 'softplus', json.loads(sys.stdin.read()), timeout=120)))")
    env = {**os.environ, "COURSE_FAST": "1"}
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(cells), capture_output=True,
                         text=True, env=env, cwd=REPO_ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def test_reference_survives_and_a_mutant_is_killed():
    assert _judge_fresh(_cells()) == ("survived", "")
    m = next(m for m in mutants(A, "softplus") if "Add -> Sub" in m.what or "dropped" in m.what)
    status, _ = _judge_fresh(_cells({m.cell: m.source}))
    assert status == "killed", m.what


def test_mutants_are_stable_and_inside_solution_blocks():
    first, again = mutants(A), mutants(A)
    assert [m.id for m in first] == [m.id for m in again] and len(first) > 50
    assert len({m.id for m in first}) == len(first)


def test_scores_recorded_and_equivalents_parsed_from_their_section():
    text = (TESTS_DIR / A / "mutants.md").read_text()
    tasks = {m.task for m in mutants(A)}
    for task in tasks:
        assert re.search(rf"^\| {re.escape(task)} \|", text, re.M), f"no mutation score for {task}"
    survivors = set(re.findall(r"^- `([0-9a-f]{8})`", text.split("## Equivalent mutants")[0], re.M))
    assert not survivors & set(equivalents(A)), "a surviving mutant was read as equivalent"


def test_one_line_may_explain_several_equivalent_mutants(tmp_path, monkeypatch):
    from course.authoring import mutants as mod
    (tmp_path / "T").mkdir()
    (tmp_path / "T" / "mutants.md").write_text(
        "## Surviving mutants\n\n- `0000000a` t · c line 1: not here\n\n## Equivalent mutants\n\n"
        "- `1a2b3c4d` / `5e6f7a8b` t · c lines 3, 4: min and max of a symmetric pair\n"
        "- `9c9c9c9c` t · c line 9: an error message's wording\n")
    monkeypatch.setattr(mod, "TESTS_DIR", tmp_path)
    assert mod.equivalents("T") == {"1a2b3c4d": "min and max of a symmetric pair",
                                    "5e6f7a8b": "min and max of a symmetric pair",
                                    "9c9c9c9c": "an error message's wording"}


def test_a_task_run_keeps_the_other_tasks_mistake_shaped_records(tmp_path, monkeypatch):
    from course.authoring import mutants as mod
    (tmp_path / "T").mkdir()
    monkeypatch.setattr(mod, "TESTS_DIR", tmp_path)
    one = lambda i: {"killed": 1, "survived": 0, "equivalent": 0,  # noqa: E731
                     "all": [{"status": "killed", "id": i, "what": MISTAKE + "a copy not made"}]}
    mod.write_mistakes("T", {"a": one("0000000a"), "b": one("0000000b")})
    mod.write_mistakes("T", {"b": one("0000000c")}, partial=True)
    text = (tmp_path / "T" / "mutants.md").read_text()
    assert "| a | killed 1 of 1" in text and "0000000a a:" in text and "0000000c b:" in text
    assert "0000000b" not in text and text.count("| b | killed") == 1


BAR = 90  # per cent of non-equivalent mutants killed, per task (issue: "at least 90 % in every task")
# Topics whose recorded run is not complete yet, and why. Each is an expected failure (reported as
# xfailed, never as passed); strict, so the entry must go once the record is complete.
INCOMPLETE: dict[str, str] = {
}


def _bar_params():
    return [pytest.param(a, marks=pytest.mark.xfail(reason=INCOMPLETE[a], strict=True)) if a in INCOMPLETE else a
            for a in assignments()]


@pytest.mark.parametrize("assignment", _bar_params())
def test_recorded_scores_meet_the_bar(assignment):
    """tests/<id>/mutants.md records a full run (no --limit) with a row for every task of the
    notebook, each killing at least BAR % of its non-equivalent mutants; a benchmark's record, kept
    honest: the mutants it lists as surviving are exactly those the score counts."""
    text = (TESTS_DIR / assignment / "mutants.md").read_text()
    assert not re.search(r"first \d+ of \d+ mutants \(--limit\)", text), f"{assignment}: the recorded run was limited"
    rows = {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            for m in re.finditer(r"^\| ([\w.-]+) \| (\d+) \| (\d+) \| (\d+) \| \d+ \|", text, re.M)}
    tasks = {m.task for m in mutants(assignment)}
    missing = sorted(tasks - set(rows))
    assert not missing, f"{assignment}: no mutation score recorded for {missing} (make mutants ID={assignment} WRITE=1)"
    low = {t: f"{k}/{k + s}" for t, (_, k, s) in rows.items() if t in tasks and k + s and 100 * k < BAR * (k + s)}
    assert not low, f"{assignment}: tasks below {BAR} % of mutants killed: {low}"
    listed = re.findall(r"^- `[0-9a-f]{8}` ([\w.-]+) ", text.split("## Surviving mutants")[1].split("## Equivalent")[0], re.M)
    for t, (_, _, s) in rows.items():
        assert listed.count(t) == s, f"{assignment}: {t} has {s} survivors counted, {listed.count(t)} listed"


@pytest.mark.parametrize("assignment", assignments())
def test_mistake_shaped_mutants_recorded_and_killed(assignment):
    """tests/<id>/mutants.md records a verdict for every current mistake-shaped mutant (a copy not
    made, view for reshape, equal for allclose, children for modules, a scoping `with` removed) that is
    not explained as equivalent, and each task kills at least BAR % of them."""
    text = (TESTS_DIR / assignment / "mutants.md").read_text()
    assert MISTAKES_HEAD in text, f"{assignment}: no mistake-shaped record (make mutants ID={assignment} MISTAKES=1 WRITE=1)"
    section = text.split(MISTAKES_HEAD, 1)[1]
    recorded = {m.group(2): (m.group(1), m.group(3)) for m in
                re.finditer(r"^\* (killed|survived) ([0-9a-f]{8}) ([\w.-]+):", section, re.M)}
    equiv = equivalents(assignment)
    current = {m.id: m.task for m in mutants(assignment) if m.what.startswith(MISTAKE) and m.id not in equiv}
    assert set(recorded) == set(current), (f"{assignment}: the record is stale: not judged {sorted(set(current) - set(recorded))}, "
                                           f"no longer made {sorted(set(recorded) - set(current))}")
    for task in set(current.values()):
        verdicts = [v for v, t in recorded.values() if t == task]
        killed = verdicts.count("killed")
        assert 100 * killed >= BAR * len(verdicts), f"{assignment} {task}: {killed} of {len(verdicts)} killed"


def test_a_running_total_that_keeps_only_the_last_value_is_a_mistake_shaped_mutant():
    """`+=` and `d[k] = d.get(k, 0) + v` / `t = t + v` each get a mutant that keeps only the last value;
    other additions and other augmented operators do not."""
    import ast
    from course.authoring.mutants import _Sites, _apply
    src = ("def f(xs, d):\n    total = 0\n    for x in xs:\n        total += x\n        d['n'] = d.get('n', 0) + x\n"
           "        s = total + x\n        total = total + 1\n        total *= 2\n    return total\n")
    tree = ast.parse(src)
    sites = _Sites(set(range(1, 10)))
    sites.visit(tree)
    before = ast.unparse(tree).splitlines()
    changed = []
    for site in sites.sites:
        if "running total" in site[3]:
            after = ast.unparse(_apply(tree, site)).splitlines()
            changed += [b.strip() for a, b in zip(before, after) if a != b]
    assert sorted(changed) == ["d['n'] = x", "total = 1", "total = x"]
