"""Grading untrusted code, end to end through nbgrader: every hostile submission in
tests/submissions/_hostile scores 0 on every cell, the batch completes, the honest submissions
graded after them (tests/submissions/_honest, and the reference) keep full marks, and crashes
leave a line in the grading log.

The kernel-side defences (sandboxed kernel, cell repair, crash and time limits) do not depend on
the assignment, so the whole corpus runs end to end on one assignment (15-01). The defences that
do depend on each assignment's checks (reading solutions, patching comparisons) are run against
every assignment by tests/test_submissions.py::test_generic_submissions.
"""
import hashlib
import os
import secrets
import shutil
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook, MissingEntry

import os as _os

import torch as _torch

if not _torch.cuda.is_available():
    # Instructor CI on a CPU machine: GPU-marked checks are graded as skipped (and say so).
    _os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course import REPO_ROOT
from course.build import assignments
from course.grading import pipeline, submissions

ASSIGNMENTS = assignments()
FIRST = "15-01" if "15-01" in ASSIGNMENTS else ASSIGNMENTS[0]
CRASHES = {"kill_kernel", "segfault", "endless_loop", "print_flood", "memory_bomb", "truncated", "not_json"}
SALT = str(secrets.randbelow(10**12) + 10**11)  # a fresh secret per run: it must reach no student
LIMITS = {"COURSE_CELL_TIMEOUT": "15", "COURSE_LOAD_TIMEOUT": "30", "COURSE_CALL_TIMEOUT": "30",
          "COURSE_MEMORY_LIMIT_MB": "2048", "COURSE_SEED_SALT": SALT}
MARKER = Path("/tmp/COURSE_HOSTILE_PWNED")  # what link_swap's payload would write if it ever ran on the host
TRUSTED = ("course", "tests", "source", "release", "nbgrader_config.py", "Makefile", "requirements.txt", "pyproject.toml")


def tree_hashes(*roots: Path) -> dict[str, str]:
    """sha256 of every file under the trusted parts of the course (caches excluded)."""
    out = {}
    for root in roots:
        for top in TRUSTED:
            base = root / top
            paths = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
            for p in paths:
                if p.is_symlink() or "__pycache__" in p.parts or ".hypothesis" in p.parts:
                    out[str(p)] = "symlink" if p.is_symlink() else out.get(str(p), "")
                    continue
                if p.is_file():
                    out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def plan():
    out = []  # (student, assignment, spec path, kind)
    for p in submissions.generic_specs("hostile"):
        out.append((f"hostile-{p.stem}", FIRST, p, "hostile"))
    for p in submissions.generic_specs("honest"):
        out.append((f"zz-honest-{p.stem}", FIRST, p, "honest"))
    return out


PLAN = plan()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile-course")
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source", root / "source", ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    for student, a, spec, _ in PLAN:
        dest = root / "gradebook" / "submitted" / student / a / submissions.release_notebook(a).name
        loaded = submissions.write(spec, dest, assignment=a)
        if "PLACE" in loaded:  # file-level attacks on the submitted folder
            loaded["PLACE"](dest.parent, {"root": root, "repo": REPO_ROOT, "assignment": a, "student": student})
    MARKER.unlink(missing_ok=True)
    before = tree_hashes(REPO_ROOT, root)
    old = {k: os.environ.get(k) for k in LIMITS}
    os.environ.update(LIMITS)
    try:
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = pipeline.run(root, sorted({a for _, a, _, _ in PLAN}), examples=False)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return root, rc, out.getvalue(), before


def score(root, a, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        try:
            sub = gb.find_submission_notebook(submissions.release_notebook(a).stem, a, student)
        except MissingEntry:
            return None
        return {g.name: (g.score, g.max_score) for g in sub.grades if g.max_score > 0}


def test_batch_completes(graded):
    root, rc, out, _ = graded
    assert rc == 0, f"some submissions were not graded:\n{out}"


@pytest.mark.parametrize("student,assignment,spec,kind", PLAN, ids=[f"{s}@{a}" for s, a, _, _ in PLAN])
def test_verdict(graded, student, assignment, spec, kind):
    root, _, out, _ = graded
    cells = score(root, assignment, student)
    assert cells is not None, f"{student} was not graded for {assignment}:\n{out}"
    if kind == "hostile":
        earned = {k: v for k, v in cells.items() if v[0]}
        assert not earned, f"{student} earned points in {assignment}: {earned}"
    else:
        short = {k: v for k, v in cells.items() if v[0] != v[1]}
        assert not short, f"{student} lost points in {assignment}: {short}"


@pytest.mark.parametrize("name", sorted(CRASHES | {"restructure"}))
def test_incident_is_logged(graded, name):
    root, _, out, _ = graded
    log = (root / "gradebook" / "logs" / f"{FIRST}.log").read_text() + out
    student = f"hostile-{name}"
    lines = [ln for ln in log.splitlines() if student in ln and ("WARNING" in ln or "graded as a blank" in ln
                                                                 or ln.strip().startswith(FIRST))]
    assert lines, f"no line about {student} in the grading log"


def test_gradebook_and_solutions_out_of_reach(graded):
    root, _, _, _ = graded
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        for a in {FIRST}:
            for s in gb.assignment_submissions(a):
                assert s.score <= s.max_score, f"{s.student.id} has {s.score} of {s.max_score} in {a}"
    nb = nbformat.read(next((root / "autograded" / f"hostile-read_solutions" / FIRST).glob("*.ipynb")), 4)
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "NETWORK REACHABLE" not in text
    assert "def test_" not in text and "student.call" not in text, "the submission could read the hidden tests"


# ---------------------------------------------------------------- after the batch: nothing leaked

def student_files(root: Path, prefix: str = ""):
    """Every entry of autograded/ and feedback/ (of the students whose id starts with ``prefix``)."""
    for top in (root / "autograded", root / "gradebook" / "feedback"):
        for dirpath, dirnames, filenames in os.walk(top):
            for name in dirnames + filenames:
                p = Path(dirpath) / name
                if p.relative_to(top).parts[0].startswith(prefix):
                    yield p


def test_no_file_outside_the_students_scratch_changed(graded):
    root, _, _, before = graded
    assert not MARKER.exists(), "a submission ran a command on the grading host"
    after = tree_hashes(REPO_ROOT, root)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p)
                     and not p.startswith(str(root / "release")))  # release/ is generated by the run
    assert not changed, f"files changed by grading: {changed[:10]}"


def test_no_symlink_in_student_folders(graded):
    root, _, _, _ = graded
    links = [str(p) for p in student_files(root) if p.is_symlink()]
    assert not links, f"symbolic links in autograded/ or feedback/: {links}"


def test_feedback_holds_only_the_feedback(graded):
    root, _, _, _ = graded
    allowed = {"timestamp.txt", "submission_secret.txt"}
    extra = [str(p) for p in (root / "gradebook" / "feedback").rglob("*")
             if p.is_file() and p.suffix != ".html" and p.name not in allowed]
    assert not extra, f"feedback folders hold files from the submission's folder: {extra}"
    big = [(str(p), p.stat().st_size) for p in student_files(root) if p.is_file() and p.stat().st_size > 16 * 2**20]
    assert not big, f"graded notebook or feedback over 16 MB: {big}"


def test_nothing_secret_in_hostile_students_folders(graded):
    root, _, _, _ = graded
    src = nbtools_read(sorted((root / "source" / FIRST).glob("*.ipynb"))[0])
    released = {ln.strip() for c in nbtools_read(submissions.release_notebook(FIRST)).cells
                for ln in c.source.splitlines()}
    solution_lines = {ln.strip() for c in src.cells if c.get("metadata", {}).get("nbgrader", {}).get("solution")
                      for ln in c.source.splitlines() if len(ln.strip()) > 25} - released
    secrets_ = {"gradebook bytes": b"SQLite format 3", "the seed salt": SALT.encode(),
                "hidden test code": b"student.call(", "a host file": b"root:x:0:0"}
    found = []
    for p in student_files(root, prefix="hostile-"):
        if not p.is_file():
            continue
        data = p.read_bytes()
        found += [f"{p}: {what}" for what, needle in secrets_.items() if needle in data]
        text = data.decode("utf-8", "replace")
        found += [f"{p}: solution line {ln[:40]!r}" for ln in solution_lines if ln in text][:3]
    assert not found, "\n".join(found[:20])


def test_log_lines_cannot_be_forged(graded):
    root, _, out, _ = graded
    log = (root / "gradebook" / "logs" / f"{FIRST}.log").read_text() + out
    forged = [ln for ln in log.splitlines() if ln.startswith("[AutogradeApp | WARNING | 00:00:00]")]
    assert not forged, f"a file name forged a log line: {forged}"
    assert (root / "gradebook" / "rejected" / "hostile-submitted_links" / FIRST).is_dir()


def nbtools_read(path):
    from course import notebook as nbtools
    return nbtools.read(path)
