"""nbgrader commands run in one long-lived process (course/grading/class_run/runner.py): output lands in the
command's log, a failing command reports its exit code without stopping the runner, and a runner
that dies costs nothing: the command runs in a process of its own instead."""
import shutil

import pytest

from course import REPO_ROOT
from course import tool_env
from course.grading.class_run import runner, submissions

A = "15-01"


@pytest.fixture
def course(tmp_path):
    shutil.copy(REPO_ROOT / "nbgrader_config.py", tmp_path)
    shutil.copytree(REPO_ROOT / "source" / A, tmp_path / "source" / A, ignore=shutil.ignore_patterns("*.nb.py"))
    (tmp_path / "gradebook").mkdir()
    return tmp_path


def release(root):
    return root / "release" / A / submissions.release_notebook(A).name


def test_commands_share_one_process_and_a_failure_does_not_stop_it(course):
    log = course / "run.log"
    r = runner.shared(tool_env())
    assert r is not None, "the runner could not start"
    pid, before = r.proc.pid, r.commands
    assert runner.nbgrader(course, ["generate_assignment", "no-such-assignment"], log) != 0
    assert runner.nbgrader(course, ["generate_assignment", A, "--force"], log) == 0
    assert release(course).exists()
    r = runner.shared(tool_env())
    assert (r.proc.pid, r.commands) == (pid, before + 2), "the commands did not both run in the runner"
    text = log.read_text()
    assert f"$ nbgrader generate_assignment {A} --force" in text and "Writing" in text
    # a command that runs no notebook starts no sandbox template (about 10 s of CPU importing torch)
    import psutil
    below = [" ".join(p.cmdline()) for p in psutil.Process(pid).children(recursive=True)]
    assert not [c for c in below if "course.sandbox.template" in c], below


def test_gradebooks_are_stamped_with_nbgraders_own_alembic_head(tmp_path):
    """gradebook_head reads in-process the revision nbgrader's `alembic heads` subprocess prints first,
    and a gradebook created through nbgrader's API is stamped with it."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    from nbgrader.api import Gradebook, text
    from nbgrader.dbutil import _temp_alembic_ini
    from course.grading.class_run import gradebook_head
    alembic = Path(sys.executable).with_name("alembic")
    with _temp_alembic_ini(f"sqlite:///{tmp_path / 'probe.db'}") as ini:
        printed = subprocess.run([str(alembic), "-c", ini, "heads"], capture_output=True, text=True, check=True,
                                 env={**os.environ, "PATH": f"{alembic.parent}:{os.environ.get('PATH', '')}"})
    assert gradebook_head.head() == printed.stdout.split("\n")[0].split(" ")[0] != ""
    gradebook_head.install()
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as gb:
        assert gb.db.execute(text("SELECT version_num FROM alembic_version")).scalar() == gradebook_head.head()


def test_a_dead_runner_falls_back_to_a_process_of_its_own(course, monkeypatch):
    dead = runner.Runner(tool_env())
    dead.proc.kill()
    dead.proc.wait()
    monkeypatch.setattr(runner, "shared", lambda env: dead)
    log = course / "run.log"
    assert runner.nbgrader(course, ["generate_assignment", A, "--force"], log) == 0
    assert release(course).exists()
    assert "running the command in a process of its own" in log.read_text()
