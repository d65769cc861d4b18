"""Grading a class on several workers (course/grading/class_run/batch.py through the pipeline): the scores do
not depend on the number of workers, a batch killed half way is finished by the next run without
grading anything twice, and a changed submission is graded again."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import nbformat
import pytest
from nbgrader.api import Gradebook

import torch as _torch

if not _torch.cuda.is_available():
    os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course import REPO_ROOT
from course import notebook as nbtools
from course.grading.class_run import batch, graded_record, submissions

A = "15-01"
NAME = submissions.release_notebook(A).name


def test_shard_splits_the_class_without_overlap():
    everyone = [f"s{i:02d}" for i in range(7)]
    parts = [batch.shard(everyone, f"{k}/3") for k in range(3)]
    assert sorted(sum(parts, [])) == everyone and parts[0] == ["s00", "s03", "s06"]
    assert batch.shard(everyone, None) == everyone
    with pytest.raises(ValueError):
        batch.shard(everyone, "3/3")


def test_default_workers(monkeypatch):
    monkeypatch.delenv("COURSE_WORKERS", raising=False)
    cores = len(os.sched_getaffinity(0))
    assert batch.default_workers() == max(1, min(cores // 2, batch.default_workers(gpus=10**6)))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))  # a 16-core GPU node
    assert batch.default_workers() == min(8, batch.default_workers(gpus=10**6))  # one worker per two cores
    monkeypatch.setenv("COURSE_SLOTS_PER_GPU", "3")
    assert batch.default_workers(gpus=1) == min(3, batch.default_workers(gpus=64))
    assert batch.default_workers(gpus=64) <= 8
    monkeypatch.setenv("COURSE_WORKERS", "5")
    assert batch.default_workers() == 5


def test_fingerprint_follows_the_submission_and_the_grading_code(tmp_path):
    folder = tmp_path / "gradebook" / "submitted" / "amy" / A
    folder.mkdir(parents=True)
    (folder / NAME).write_text("{}")
    key = batch.grading_key(A)
    first = batch.fingerprint(tmp_path, A, "amy", key)
    assert batch.fingerprint(tmp_path, A, "amy", key) == first
    (folder / NAME).write_text("{ }")
    assert batch.fingerprint(tmp_path, A, "amy", key) != first
    assert batch.fingerprint(tmp_path, A, "amy", key + "x") != batch.fingerprint(tmp_path, A, "amy", key)
    plain = batch.fingerprint(tmp_path, A, "amy", key)
    (folder / "link").symlink_to("/etc/passwd")  # never followed, still part of what was submitted
    assert batch.fingerprint(tmp_path, A, "amy", key) != plain


def test_gradebook_url_printed_without_its_password():
    from course.grading.records import db_url
    assert db_url.shown("postgresql+psycopg2://grader:s3cret@db:5432/gb") == "postgresql+psycopg2://grader:***@db:5432/gb"
    assert db_url.normalize("postgresql://u@h/gb") in ("postgresql+psycopg2://u@h/gb", "postgresql://u@h/gb")


def test_incidents_are_records_of_the_latest_grading(tmp_path):
    from course.grading.records import incidents

    class Log:
        lines = []

        def warning(self, fmt, *args):
            self.lines.append(fmt % args)

    log = Log()
    incidents.report(log, tmp_path, "15-01", "../x", incidents.KERNEL, "notebook execution stopped early: memory")
    incidents.record(tmp_path, "15-01", "../x", incidents.INTAKE, "../x: a.ipynb was set aside (a link)")
    assert log.lines == ["../x: notebook execution stopped early: memory"]
    assert incidents.take(tmp_path, "15-01", "../x") == [
        {"kind": "kernel", "message": "notebook execution stopped early: memory"},
        {"kind": "intake", "message": "a.ipynb was set aside (a link)"}]
    incidents.clear(tmp_path, "15-01", "../x")  # the next grading starts
    assert incidents.take(tmp_path, "15-01", "../x") == []
    assert [p.parent for p in (tmp_path / "gradebook" / "records").rglob("*.jsonl")] == [
        tmp_path / "gradebook" / "records" / "15-01"]  # the id "../x" cannot lead out of its folder


# -- a small class, graded for real --------------------------------------------------------------

CLASS = {"s1-ref": "reference", "s2-blank": "release", "s3-wrong": "partly_wrong"}


def _course(root):
    root.mkdir(parents=True)
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source" / A, root / "source" / A, ignore=shutil.ignore_patterns("*.nb.py"))
    for student, kind in CLASS.items():
        dest = root / "gradebook" / "submitted" / student / A / NAME
        dest.parent.mkdir(parents=True)
        if kind == "reference":
            nbformat.write(submissions.reference(A), dest)
        elif kind == "release":
            nbformat.write(nbtools.read(submissions.release_notebook(A)), dest)
        else:
            submissions.write(REPO_ROOT / "tests" / "submissions" / A / f"{kind}.py", dest)
    return root


def _pipeline(root, workers, steps="generate,autograde"):
    cmd = [sys.executable, "-m", "course.grading.pipeline", "--root", str(root), "--assignment", A,
           "--no-examples", "--steps", steps, "--workers", str(workers), "--no-progress"]
    return subprocess.Popen(cmd, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def _scores(root):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        out = {}
        for s in CLASS:
            sub = gb.find_submission_notebook(NAME[:-len(".ipynb")], A, s)
            out[s] = {g.name: g.score for g in sub.grades if g.max_score > 0}
        return out


def _markers(root):
    folder = root / "gradebook" / "progress" / A
    return {p.stem: json.loads(p.read_text())["at"] for p in folder.glob("*.json")} if folder.is_dir() else {}


def _graded(root):
    """The gradebook's own record of what was graded to the end, and when (what a resume trusts)."""
    db = f"sqlite:///{root / 'gradebook' / 'gradebook.db'}"
    if not (root / "gradebook" / "gradebook.db").exists() or "course_graded" not in graded_record.tables(db):
        return {}
    return {s: row["at"] for (_, s), row in graded_record.rows(db, [(A, s) for s in CLASS]).items()}


def test_killed_batch_resumes_with_the_same_scores_as_a_serial_run(tmp_path):
    serial, parallel = _course(tmp_path / "serial"), _course(tmp_path / "parallel")
    one = _pipeline(serial, 1)  # the serial run goes on while the parallel one is killed and resumed
    two = _pipeline(parallel, 2)
    deadline = time.monotonic() + 600
    while not _markers(parallel) and time.monotonic() < deadline and two.poll() is None:
        time.sleep(0.5)
    os.killpg(two.pid, signal.SIGKILL)  # no clean-up at all, as when a node goes away
    two.wait()
    before = _graded(parallel)  # a marker is written after the gradebook's record, so it may lag behind
    assert set(_markers(parallel)) <= set(before), "a progress marker claims a grade the gradebook lacks"
    assert 1 <= len(before) < len(CLASS), f"the kill came too late to test a resume: {before}"
    again = _pipeline(parallel, 2, steps="autograde")
    out, _ = again.communicate(timeout=900)
    assert again.returncode == 0, out
    after = _graded(parallel)
    assert set(after) == set(CLASS) == set(_markers(parallel)), out
    assert {s: after[s] for s in before} == before, "a submission finished before the kill was graded again"
    assert f"{len(CLASS) - len(before)} graded, {len(before)} unchanged" in out, out
    out1, _ = one.communicate(timeout=900)
    assert one.returncode == 0, out1
    assert _scores(parallel) == _scores(serial)
    assert _scores(serial)["s1-ref"] and all(v == 0 for v in _scores(serial)["s2-blank"].values())

    # a changed submission is graded again, the others are not
    wrong = parallel / "gradebook" / "submitted" / "s1-ref" / A / NAME
    shutil.copy(parallel / "gradebook" / "submitted" / "s3-wrong" / A / NAME, wrong)  # safe: test's own files
    third = _pipeline(parallel, 2, steps="autograde")
    out, _ = third.communicate(timeout=900)
    assert f"1 graded, {len(CLASS) - 1} unchanged" in out, out
    assert _scores(parallel)["s1-ref"] == _scores(serial)["s3-wrong"]
