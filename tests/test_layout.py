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
