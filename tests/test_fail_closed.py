"""Fail closed where a class really grades: the course's settings are what nbgrader itself loads, so
when they cannot load, no nbgrader command runs anything; leftovers of a hostile run never stop the
next run from loading them; an instructor's `nbgrader validate` runs the notebook in the sandbox.

Each test runs the real `nbgrader` command in a copy of the course root.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from course import REPO_ROOT, sandbox
from course import fstree
from course import assignments
from course.grading.class_run import submissions

A = "15-01" if "15-01" in assignments() else assignments()[0]
REFUSAL = "the course's grading configuration failed to load"


def nbgrader(*args, cwd, env, timeout=600):
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def marker_cell(marker: Path) -> str:
    """Student code that leaves a file on the host if it ever runs outside the sandbox."""
    return f"open({str(marker)!r}, 'w').write('ran on the host')\nprint('marker written')"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    base = tmp_path_factory.mktemp("fail-closed")
    root, tmp = base / "course", base / "tmp"
    (root / "gradebook").mkdir(parents=True)
    tmp.mkdir()
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source" / A, root / "source" / A,
                    ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO_ROOT),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    r = nbgrader("generate_assignment", A, "--force", cwd=root, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    return root, tmp, env


def submit(root: Path, student: str, marker: Path) -> Path:
    nb = nbformat.read(submissions.release_notebook(A), 4)
    nb.cells.insert(1, nbformat.v4.new_code_cell(marker_cell(marker)))
    dest = root / "gradebook" / "submitted" / student / A / submissions.release_notebook(A).name
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, dest)
    return dest


@pytest.mark.parametrize("breakage", [{"COURSE_MEMORY_LIMIT_MB": "lots"}, {"COURSE_SANDBOX_UIDS": "0-5000"},
                                      {"COURSE_CELL_TIMEOUT": "1O"}], ids=["setting", "account", "timeout"])
def test_broken_configuration_refuses_before_running_anything(course, breakage, tmp_path):
    """A setting that fails to parse: the command stops with one line; no notebook is executed."""
    root, _, env = course
    marker = tmp_path / "marker"
    submit(root, "mallory", marker)
    r = nbgrader("autograde", A, "--force", cwd=root, env={**env, **breakage})
    out = r.stdout + r.stderr
    assert r.returncode != 0, f"autograde ran with a broken configuration:\n{out[-2000:]}"
    assert REFUSAL in out and "refusing to run" in out, out[-2000:]
    assert "Traceback" not in out, f"the refusal should be one line, not a traceback:\n{out[-2000:]}"
    assert not marker.exists(), "student code ran although the configuration did not load"
    assert not list((root / "autograded").glob(f"mallory/{A}/*.ipynb")), "a notebook was processed"


def test_leftover_tree_of_a_dead_run_is_swept_when_the_configuration_loads(course):
    """A dead run's kernel folder holding a chain of folders deeper than Python's recursion limit
    (which made shutil.rmtree raise inside the configuration): the next command loads the course's
    settings, removes it, and works."""
    root, tmp, env = course
    dead = subprocess.Popen(["true"])
    dead.wait()
    own = tmp / f"course-grader-{os.geteuid()}"  # the grader's own temporary folder (tempdirs.private_root)
    own.mkdir(mode=0o711, exist_ok=True)
    left = own / f"course-kernels-{dead.pid}-leftover" / "k-old" / "ipc" / ".hidden"
    left.mkdir(parents=True)
    fd = os.open(left, os.O_RDONLY)
    for _ in range(3000):
        os.mkdir("d", dir_fd=fd)
        nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    big = os.open("junk", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
    os.ftruncate(big, 2**20)
    os.close(big)
    os.close(fd)
    r = nbgrader("db", "student", "list", cwd=root, env=env)
    assert r.returncode == 0 and REFUSAL not in r.stderr, r.stderr[-2000:]
    assert not (own / f"course-kernels-{dead.pid}-leftover").exists(), "the leftover folder is still there"


def test_instructor_validate_runs_the_notebook_in_the_sandbox(course, tmp_path):
    """`nbgrader validate` on a student's notebook, in the course root, uses the sandboxed kernel."""
    if sandbox.probe() is not None:
        pytest.skip(f"no sandbox here: {sandbox.probe()}")
    root, _, env = course
    marker = root / "validate-marker"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(marker_cell(marker))])
    path = tmp_path / "student.ipynb"
    nbformat.write(nb, path)
    r = nbgrader("validate", str(path), cwd=root, env=env, timeout=300)
    assert not marker.exists(), f"validate ran the notebook on the host:\n{r.stdout[-1500:]}"
    assert "marker written" not in r.stdout, r.stdout[-1500:]


def test_fstree_removes_and_measures_what_shutil_cannot(tmp_path):
    top = tmp_path / "ipc"
    top.mkdir()
    (top / "sock").write_bytes(b"x" * 10)
    os.symlink("/etc/passwd", top / "link")
    fd = os.open(top, os.O_RDONLY)
    for _ in range(1500):
        os.mkdir("d", dir_fd=fd)
        nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    os.mkdir("closed", 0o000, dir_fd=fd)
    os.close(fd)
    used = fstree.usage(str(top), max_depth=8)
    assert not used.complete and used.over(64, 10**6, 1) == "folders nested more than 1 deep"
    flat = fstree.usage(str(top / "d" / "d"), max_depth=1)
    assert flat.entries == 1 and flat.depth == 2 and not flat.complete
    assert fstree.remove(str(top)) and not top.exists()
    assert Path("/etc/passwd").exists()
    assert fstree.remove(str(top))  # already gone: still True, no error
