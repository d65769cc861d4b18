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


def test_a_dead_runner_falls_back_to_a_process_of_its_own(course, monkeypatch):
    dead = runner.Runner(tool_env())
    dead.proc.kill()
    dead.proc.wait()
    monkeypatch.setattr(runner, "shared", lambda env: dead)
    log = course / "run.log"
    assert runner.nbgrader(course, ["generate_assignment", A, "--force"], log) == 0
    assert release(course).exists()
    assert "running the command in a process of its own" in log.read_text()
