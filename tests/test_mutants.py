"""The mutation tool (course/mutants.py) itself: the reference survives its own checks, a plain
wrong answer is killed, equivalents are read only from their section, and every 15-01 task has a
mutation score recorded."""
import re

from course import SOURCE_DIR, TESTS_DIR
from course import notebook as nbtools
from course.mutants import _judge, equivalents, mutants

A = "15-01"


def _cells(replace: dict | None = None) -> list[str]:
    nb = nbtools.read(next((SOURCE_DIR / A).glob("*.ipynb")))
    out = []
    for c in nb.cells:
        if c.cell_type == "code" and not nbtools.is_test_cell(c):
            out.append((replace or {}).get(nbtools.nbgrader_meta(c).get("grade_id"), c.source))
    return out


def test_reference_survives_and_a_mutant_is_killed(monkeypatch):
    monkeypatch.setenv("COURSE_FAST", "1")
    assert _judge(A, "softplus", _cells(), timeout=120) == ("survived", "")
    m = next(m for m in mutants(A, "softplus") if "Add -> Sub" in m.what or "dropped" in m.what)
    status, _ = _judge(A, "softplus", _cells({m.cell: m.source}), timeout=120)
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
