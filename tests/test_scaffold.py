"""`python -m course.authoring.build new` makes a topic that passes CI as generated.

Each template is scaffolded into a scratch copy of the course (the grader code, the generic example
submissions and the CI test modules; no other topic). There its hidden suite passes against the
reference, its contract table is complete, its recorded mutation score meets the bar, and its
example submissions (plus the generic attacks and forgers) get their verdicts, each known-wrong one
under every seed. The full nbgrader round trip is the same code for every topic and runs in
test_round_trip for the real ones.
"""
import os
import shutil
import subprocess
import sys

import pytest

from course import REPO_ROOT
from course.authoring.scaffold import KINDS

COPY = ["course", "nbgrader_config.py", "pytest.ini", "tests/conftest.py", "tests/test_contracts.py", "tests/example_reach.py",
        "tests/test_submissions.py", "tests/pipeline_run.py", "tests/test_hostile.py", "tests/test_mutants.py",
        "tests/submissions/_hostile",
        "tests/submissions/_honest"]


@pytest.mark.parametrize("kind", KINDS)
def test_scaffolded_topic_passes_ci(kind, tmp_path):
    root = tmp_path / "course-copy"
    for rel in COPY:
        src, dst = REPO_ROOT / rel, root / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))  # safe: repository files
        else:
            shutil.copy(src, dst)  # safe: repository files
    for d in ("source", "release", "gradebook"):
        (root / d).mkdir(exist_ok=True)
    topic = "99-01"
    env = {**os.environ, "PYTHONPATH": str(root), "COURSE_ONLY": topic, "COURSE_ALLOW_CPU_GRADING": "1"}
    new = subprocess.run([sys.executable, "-m", "course.authoring.build", "new", topic, "--template", kind,
                          "--title", f"A {kind} topic"], cwd=root, env=env, capture_output=True, text=True)
    assert new.returncode == 0, new.stdout + new.stderr
    assert (root / "release" / topic).is_dir() and list((root / "source" / topic).glob("*.ipynb"))
    again = subprocess.run([sys.executable, "-m", "course.authoring.build", "new", topic, "--template", kind],
                           cwd=root, env=env, capture_output=True, text=True)
    assert again.returncode != 0 and "exists already" in again.stdout + again.stderr
    ci = subprocess.run([sys.executable, "-m", "pytest", f"tests/{topic}", "tests/test_contracts.py",
                         "tests/test_submissions.py", "tests/test_mutants.py::test_recorded_scores_meet_the_bar", "-q"],
                        cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert ci.returncode == 0, ci.stdout[-4000:] + ci.stderr[-2000:]
    assert " passed" in ci.stdout and "skipped" not in ci.stdout.splitlines()[-1], ci.stdout[-500:]
