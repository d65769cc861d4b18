"""course/ is laid out by role, and the import contracts in pyproject.toml ([tool.importlinter])
hold: the student package imports nothing else of course; authoring > grading > judge > sandbox >
core, each importing only the roles below it; no import cycles."""
import os
import subprocess
import sys

from course import REPO_ROOT


def test_import_contracts_hold():
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    r = subprocess.run([lint, "--no-cache"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"import contracts broken (pyproject.toml, [tool.importlinter]):\n{r.stdout[-6000:]}\n{r.stderr[-2000:]}"


def _py_files(folder):
    return [os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py")]


def _lines(path):
    with open(path, encoding="utf-8") as fh:
        return sum(1 for _ in fh)


def test_no_room_holds_too_much():
    """Every folder of course/ (templates apart) holds at most 15 Python files of its own and at most a
    quarter of course/'s lines in them; every package says in its docstring what it owns."""
    import ast

    root = os.path.join(REPO_ROOT, "course")
    folders = [d for d, _, _ in os.walk(root) if "templates" not in d and "__pycache__" not in d
               and "student_kit" not in d]
    total = sum(_lines(f) for d in folders for f in _py_files(d))
    too_big, no_doc = [], []
    for d in folders:
        files = _py_files(d)
        own = sum(_lines(f) for f in files)
        if d != root and (len(files) > 15 or own > total / 4):
            too_big.append(f"{os.path.relpath(d, REPO_ROOT)}: {len(files)} files, {own} of {total} lines")
        init = os.path.join(d, "__init__.py")
        if os.path.exists(init):
            with open(init, encoding="utf-8") as fh:
                if not ast.get_docstring(ast.parse(fh.read())):
                    no_doc.append(os.path.relpath(init, REPO_ROOT))
    assert not too_big, "folders that hold too much (split them by concern):\n" + "\n".join(too_big)
    assert not no_doc, "packages without a docstring saying what they own:\n" + "\n".join(no_doc)
