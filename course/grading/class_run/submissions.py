"""Example submissions, written as small specs and turned into notebooks.

A spec is ``tests/submissions/<assignment>/<name>.py`` with:

    EXPECT = {"task": "pass" | "fail" | "zero", ...}   # what grading must give each task
    EXPECT_GPU = {"task": "fail", ...}  # what the task's GPU-marked checks give on a GPU (make test-gpu);
                                        # a spec with no EXPECT is a mistake that no CPU check can see
    BASE = "reference"          # or "release" (the untouched student version)
    CELLS = {"solution_grade_id": "new source", ...}   # replace solution cells
    APPEND = ["code", ...]      # extra code cells at the end (optional)
    def mutate(nb): ...         # any other change to the notebook (optional)
    RAW = "..."                 # write these characters instead of a notebook (malformed files)

"pass": every check of the task passes; "fail": at least one fails;
"zero": none passes. ``reference`` is the release notebook with the
instructor's solution cells put back.
"""
from __future__ import annotations

import copy
import runpy
from pathlib import Path

import nbformat

from ... import RELEASE_DIR, SOURCE_DIR, TESTS_DIR
from ... import notebook as nbtools

SPECS_DIR = TESTS_DIR / "submissions"


def specs(assignment: str | None = None) -> list[Path]:
    """Per-assignment specs (folders starting with '_' hold generic ones, see generic_specs)."""
    pattern = f"{assignment}/*.py" if assignment else "*/*.py"
    return sorted(p for p in SPECS_DIR.glob(pattern)
                  if not p.name.startswith("_") and not p.parent.name.startswith("_"))


def generic_specs(kind: str) -> list[Path]:
    """Specs that apply to every assignment: kind is 'hostile' or 'honest'."""
    return sorted(p for p in (SPECS_DIR / f"_{kind}").glob("*.py") if not p.name.startswith("_"))


def load_spec(path: Path) -> dict:
    return runpy.run_path(str(path))


def release_notebook(assignment: str) -> Path:
    return nbtools.first_in(RELEASE_DIR / assignment, "run python -m course.authoring.build release")


def reference(assignment: str):
    """The release notebook with every solution cell replaced by the source's solution."""
    rel = nbtools.read(release_notebook(assignment))
    src = nbtools.read(nbtools.first_in(SOURCE_DIR / assignment))
    solutions = {nbtools.nbgrader_meta(c).get("grade_id"): c.source for c in src.cells
                 if nbtools.nbgrader_meta(c).get("solution")}
    nb = copy.deepcopy(rel)
    for c in nb.cells:
        gid = nbtools.nbgrader_meta(c).get("grade_id")
        if nbtools.nbgrader_meta(c).get("solution") and gid in solutions:
            c.source = solutions[gid]
    return nb


def solution(assignment: str, grade_id: str) -> str:
    """The instructor's source of one solution cell (markers included), for specs that edit it."""
    for c in nbtools.read(nbtools.first_in(SOURCE_DIR / assignment)).cells:
        meta = nbtools.nbgrader_meta(c)
        if meta.get("solution") and meta.get("grade_id") == grade_id:
            return c.source
    raise KeyError(f"{assignment}: no solution cell with grade_id {grade_id!r}")


def edited(assignment: str, grade_id: str, *edits: tuple[str, str]) -> str:
    """The reference's solution cell with each (old, new) replaced; every ``old`` must occur exactly
    once, so that a spec fails loudly when the reference it edits has changed."""
    src = solution(assignment, grade_id)
    for old, new in edits:
        if src.count(old) != 1:
            raise ValueError(f"{assignment}/{grade_id}: {old!r} occurs {src.count(old)} times in the reference")
        src = src.replace(old, new)
    return src


def build(path: Path, assignment: str | None = None) -> tuple[str | bytes, dict]:
    """Return (notebook text, spec) for one spec file (generic specs need ``assignment``)."""
    spec = load_spec(path)
    assignment = assignment or path.parent.name
    if "RAW" in spec:
        return spec["RAW"], spec
    nb = reference(assignment) if spec.get("BASE", "reference") == "reference" else \
        nbtools.read(release_notebook(assignment))
    cells = dict(spec.get("CELLS", {}))
    for c in nb.cells:
        gid = nbtools.nbgrader_meta(c).get("grade_id")
        if gid in cells:
            c.source = cells.pop(gid)
    if cells:
        raise KeyError(f"{path}: no solution cell with grade_id {sorted(cells)}")
    for code in spec.get("APPEND", []):
        nb.cells.append(nbformat.v4.new_code_cell(code))
    if "mutate" in spec:
        spec["mutate"](nb)
    return nbformat.writes(nb), spec


def write(path: Path, dest: Path, assignment: str | None = None) -> dict:
    text, spec = build(path, assignment)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text, encoding="utf-8")
    return spec
