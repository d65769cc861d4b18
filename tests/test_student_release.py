"""A student with only release/ can install and run it.

release/ is copied away from the repository and release/README.md's set-up block runs there as written
(``python3 -m venv .venv``, activate, ``python -m pip install -r requirements.txt``). To keep CI
from reinstalling 6 GB of CUDA wheels, the fresh environment sees the instructor environment's
site-packages as a plain path (third-party packages only: that folder's .pth files, the editable
install of this repository among them, are not processed). pip still resolves every pinned
requirement against it and installs the course-student package from release/. Then every release
notebook runs cell by cell, as Validate runs it: the blank release stops in its test cells with
NotImplementedError, and the reference solutions pass every visible check.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import nbformat
import pytest

from course import RELEASE_DIR
from course import notebook as nbtools
from course import assignments
from course.grading.class_run import submissions

# Runs notebooks one after the other in one process (torch is imported once), each in a fresh
# namespace and its own folder, and prints one JSON record per notebook.
RUN_CELLS = textwrap.dedent('''
    import json, os, sys, time
    import nbformat
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    for path in sys.argv[1:]:
        nb = nbformat.read(path, 4)
        os.chdir(os.path.dirname(path))
        shell.reset(new_session=True)
        out, t0 = [], time.monotonic()
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            r = shell.run_cell(cell.source, silent=True)
            err = r.error_in_exec or r.error_before_exec
            out.append({"cell": i, "id": meta.get("grade_id"),
                        "test": bool(meta.get("grade")) and not meta.get("solution"),
                        "error": type(err).__name__ if err else None, "message": str(err)[:300] if err else ""})
        print("@@RESULT" + json.dumps({"path": path, "cells": out, "seconds": time.monotonic() - t0}), flush=True)
''')


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COURSE_", "JUPYTER", "NBGRADER"))}
    env.update(MPLBACKEND="Agg", **extra)
    return env


def setup_block() -> tuple[str, str]:
    """release/README.md's first bash block, split after its venv line: (venv line, the rest)."""
    block = re.search(r"```bash\n(.*?)```", (RELEASE_DIR / "README.md").read_text(), flags=re.S).group(1)
    lines = block.splitlines()
    made = [i for i, ln in enumerate(lines) if re.match(r"python3 -m venv \.venv\b", ln)]
    assert made, f"release/README.md's set-up makes no venv (python3 -m venv .venv): pip refuses the system " \
                 f"Python on Debian and Ubuntu (PEP 668):\n{block}"
    return lines[made[0]], "\n".join(lines[made[0] + 1:])


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    """release/README.md's set-up block run as written in a copy of release/; python3 is this venv's."""
    home = tmp_path_factory.mktemp("student")
    kit = home / "release"
    shutil.copytree(RELEASE_DIR, kit)
    make_venv, rest = setup_block()
    env = clean_env(PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["bash", "-ec", make_venv], cwd=kit, env=env, check=True, capture_output=True)
    py = kit / ".venv" / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "instructor-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    probe = subprocess.run([str(py), "-c", "import course"], capture_output=True, text=True, cwd=home,
                           env=clean_env())
    assert probe.returncode != 0, "the instructor's course package is importable before the student installs"
    r = subprocess.run(["bash", "-ec", rest], cwd=kit, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return home, kit, py


@pytest.fixture(scope="module")
def ran(student) -> dict:
    """(assignment, 'blank' | 'reference') -> that notebook's cell results, run as Validate runs it."""
    home, kit, py = student
    paths = {}
    for a in assignments():
        blank = next(p for p in (kit / a).glob("*.ipynb"))
        nb = nbtools.read(blank)
        for c, s in zip(nb.cells, submissions.reference(a).cells):
            c.source = s.source
        solved = kit / a / "solved" / blank.name
        solved.parent.mkdir()
        nbformat.write(nb, solved)
        paths[(a, "blank")], paths[(a, "reference")] = blank, solved
    script = home / "run_cells.py"
    script.write_text(RUN_CELLS)
    r = subprocess.run([str(py), str(script), *map(str, paths.values())], capture_output=True, text=True,
                       env=clean_env(HOME=str(home), NBGRADER_VALIDATING="1"), timeout=1200)
    records = {json.loads(ln[8:])["path"]: json.loads(ln[8:]) for ln in r.stdout.splitlines()
               if ln.startswith("@@RESULT")}
    out = {key: records.get(str(p)) for key, p in paths.items()}
    missing = [k for k, v in out.items() if v is None]
    assert not missing, f"the notebook runner stopped at {missing}:\n{r.stdout[-1500:]}\n{r.stderr[-3000:]}"
    return out


def test_student_package_has_no_grader_code(student):
    home, _, py = student
    code = ("import sys, course, course.student.env, course.student.data, course.student.hidden, "
            "course.student.checks, importlib.util as u\n"
            "print(course.__file__)\n"
            "print([m for m in ('course.judge', 'course.grading', 'course.sandbox', 'course.authoring') "
            "if u.find_spec(m)])\n"
            "import os\n"
            "print(any(os.path.exists(os.path.join(p or '.', 'course', 'judge')) for p in sys.path))")
    r = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=home, env=clean_env())
    assert r.returncode == 0, r.stderr
    where, grader, repo_on_path = r.stdout.strip().splitlines()
    assert where.startswith(str(home / "release" / ".venv")), f"pip did not install into the venv: {where}"
    assert grader == "[]", f"grader modules installed for students: {grader}"
    assert repo_on_path == "False", "the instructor repository's course package is on the student's path"


@pytest.mark.parametrize("assignment", assignments())
def test_blank_release_stops_at_not_implemented(ran, assignment):
    res = ran[(assignment, "blank")]
    wrong = [c for c in res["cells"] if c["error"] and not (c["test"] and c["error"] == "NotImplementedError")]
    assert not wrong, f"cells of the blank {assignment} failed with something other than NotImplementedError " \
                      f"in a test cell: {wrong}"
    tests = [c for c in res["cells"] if c["test"]]
    assert tests and all(c["error"] == "NotImplementedError" for c in tests), \
        f"test cells that pass on the blank {assignment}: {[c['id'] for c in tests if not c['error']]}"


@pytest.mark.parametrize("assignment", assignments())
def test_reference_passes_every_visible_check(ran, assignment):
    res = ran[(assignment, "reference")]
    errors = [c for c in res["cells"] if c["error"]]
    assert not errors, f"the reference solution of {assignment} fails in the student environment: {errors}"
