"""`nbgrader validate` in a student's terminal, with the shipped config (release/jupyter-hub), says what
Validate says in their JupyterLab and prints a failing check's message in full."""
import os
import re
import subprocess
import sys

import nbformat
from nbgrader.utils import compute_checksum

from course import RELEASE_DIR, REPO_ROOT
from course.student.validate import SUCCESS

# A failing check whose message is far longer than nbgrader's 90-column cut, its last value at the end.
LONG = "normalize(x) returned [" + ", ".join(f"{i / 10:.1f}" for i in range(40)) + "], expected a list summing to 1.0"


def graded_notebook(source: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "check", "locked": True, "points": 1,
                                 "schema_version": 3, "solution": False, "task": False}
    cell.metadata["nbgrader"]["checksum"] = compute_checksum(cell)
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def test_lab_and_terminal_share_the_success_words():
    js = (REPO_ROOT / "course" / "student_kit" / "labextension" / "static" / "remoteEntry.js").read_text()
    assert re.search(r'var MESSAGE = "(.*?)";', js).group(1) == SUCCESS


def test_terminal_validate_wording_and_full_failures(tmp_path):
    nbformat.write(graded_notebook("assert True"), tmp_path / "a_pass.ipynb")
    nbformat.write(graded_notebook(f"assert False, {LONG!r}"), tmp_path / "b_fail.ipynb")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "NBGRADER"))}
    env.update(JUPYTER_CONFIG_PATH=str(RELEASE_DIR / "jupyter-hub"), JUPYTER_CONFIG_DIR=str(tmp_path / "user-config"),
               PYTHONPATH=str(RELEASE_DIR / "course-student"), PYTHONDONTWRITEBYTECODE="1", HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "nbgrader", "validate", "a_pass.ipynb", "b_fail.ipynb"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=300)
    out = r.stdout
    assert r.returncode == 1, r.stderr[-3000:]  # a visible check failed
    assert "without encryption" not in r.stderr, r.stderr[-3000:]
    passed, failed = out.split("VALIDATION FAILED", 1) if "VALIDATION FAILED" in out else (out, "")
    assert SUCCESS in passed and "passes all the tests" not in out, out[-3000:]
    assert f"AssertionError: {LONG}" in failed, out[-3000:]


def test_release_readme_validate_line_as_written(tmp_path):
    """The student README's terminal line, run as written in a copy of the release folder: the course's
    wording, and exit 0 when every visible check passes, 1 when one fails."""
    import shutil
    line = next(ln.strip() for ln in (RELEASE_DIR / "README.md").read_text().splitlines()
                if "nbgrader validate" in ln and not ln.strip().startswith(("-", "In a")))
    assert line.startswith('JUPYTER_CONFIG_DIR="$PWD/jupyter" '), line
    shutil.copytree(RELEASE_DIR / "jupyter", tmp_path / "jupyter")
    (tmp_path / "15-01").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "NBGRADER"))}
    env.update(PATH=os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")]), HOME=str(tmp_path),
               PYTHONPATH=str(RELEASE_DIR / "course-student"), PYTHONDONTWRITEBYTECODE="1")
    codes = {}
    for name, source in (("pass", "assert True"), ("fail", f"assert False, {LONG!r}")):
        nbformat.write(graded_notebook(source), tmp_path / "15-01" / "15-01_x.ipynb")
        r = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert "without encryption" not in r.stderr and "passes all the tests" not in r.stdout, r.stdout + r.stderr
        codes[name] = r.returncode
        assert (SUCCESS in r.stdout) == (name == "pass"), r.stdout[-3000:] + r.stderr[-3000:]
    assert codes == {"pass": 0, "fail": 1}
