"""The student release is current and leaks nothing (instructor CI)."""
import re

import pytest

from course import RELEASE_DIR, SOURCE_DIR
from course import notebook as nbtools
from course import assignments
from course.authoring.build import build_notebooks, build_release, build_student_kit

ASSIGNMENTS = assignments()
MARKERS = re.compile(r"BEGIN SOLUTION|END SOLUTION|BEGIN HIDDEN TESTS|END HIDDEN TESTS|MARK SCHEME|run_hidden\(")


def test_source_notebooks_match_their_authoring_files():
    stale = build_notebooks(check=True)
    assert not stale, f"out of date (run python -m course.authoring.build notebooks): {stale}"


def test_release_matches_generate_assignment():
    stale = build_release(check=True)
    assert not stale, f"release/ differs from what nbgrader generate_assignment makes (run make release): {stale}"


def test_student_kit_is_current():
    stale = build_student_kit(check=True)
    assert not stale, f"release/ student kit out of date (run make release): {stale}"


def test_student_package_holds_no_grader_code():
    """course-student ships course/__init__.py, course/student/ and the Validate wording's JupyterLab
    extension only, and student code imports nothing of course outside course.student (the
    instructor's in-process runner is an entry point)."""
    pkg = RELEASE_DIR / "course-student"
    files = sorted(str(p.relative_to(pkg)) for p in pkg.rglob("*") if p.is_file())
    extension = ("labextension/package.json", "labextension/install.json", "labextension/static/remoteEntry.js")
    assert all(f in ("pyproject.toml", "course/__init__.py", *extension) or f.startswith("course/student/")
               for f in files), files
    for p in (pkg / "course" / "student").glob("*.py"):
        for m in re.finditer(r"^\s*(?:from|import)\s+(course\.[\w.]+|\.\.+\w*)", p.read_text(), re.M):
            assert m.group(1).startswith("course.student"), f"{p.name} imports {m.group(1)}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_has_no_solution_or_hidden_test(assignment):
    released = list((RELEASE_DIR / assignment).rglob("*"))
    names = {p.name for p in released}
    assert not any(n.endswith((".nb.py",)) or n in ("probes.py", "conftest.py") or n.startswith("test_")
                   for n in names), f"authoring or test files in release/{assignment}: {sorted(names)}"
    for nb_path in (RELEASE_DIR / assignment).glob("*.ipynb"):
        text = nb_path.read_text()
        m = MARKERS.search(text)
        assert m is None, f"{nb_path.name} contains {m.group(0)!r}"
    # No solution reaches the release: a solution block whose distinctive lines mostly appear in the
    # student version was given away (a shared idiom shown in a worked example is fine).
    src = nbtools.read(next((SOURCE_DIR / assignment).glob("*.ipynb")))
    rel_text = "\n".join(c.source for c in nbtools.read(next((RELEASE_DIR / assignment).glob("*.ipynb"))).cells)
    for cell in src.cells:
        blocks, inside = [], False
        for line in cell.source.splitlines():
            if "BEGIN SOLUTION" in line:
                inside = True
                blocks.append([])
            elif "END SOLUTION" in line:
                inside = False
            elif inside and len(line.strip()) > 25 and not line.strip().startswith("#"):
                blocks[-1].append(line.strip())
        for block in blocks:
            if len(block) >= 3:
                shown = [ln for ln in block if ln in rel_text]
                assert len(shown) <= len(block) // 2, \
                    f"{len(shown)} of {len(block)} lines of a solution appear in the release: {shown[:3]}"
