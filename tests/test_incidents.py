"""Nothing is lost on any path: plain ``nbgrader autograde`` (not the pipeline) grades a corrupted or
renamed notebook from a copy, so the original stays where it was submitted and a regrade meets the
same case again; every incident reaches the student's feedback and the class report.
The pipeline's path is in tests/test_hostile.py (test_incident_is_logged)."""
import json
import os
import subprocess
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook

from tests import tiny_course as tc
from course import tool_env
from course.grading.records import incidents, judge_records
from course.grading.report import page as report

CORRUPT = b'{"cells": [{"cell_type": "code", "sou'
RENAMED = "tiny (1).ipynb"


def nbgrader(root, *args):
    env = dict(tool_env(), COURSE_ALLOW_CPU_GRADING="1")
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stderr


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    root = tc.make(tmp_path_factory.mktemp("plain") / "course")
    corrupt = root / "gradebook" / "submitted" / "corrupt" / tc.A / tc.NAME
    corrupt.parent.mkdir(parents=True)
    corrupt.write_bytes(CORRUPT)
    renamed = tc.submit(root, "renamed", name=RENAMED)
    (renamed.parent / "data.txt").symlink_to("/etc/hostname")  # set aside by the file intake: no note of its own
    kept = {p: p.read_bytes() for p in (corrupt, renamed)}
    nbgrader(root, "generate_assignment", tc.A, "--force")
    nbgrader(root, "autograde", tc.A, "--force")
    nbgrader(root, "generate_feedback", tc.A, "--force")
    return root, kept


def feedback(root, student):
    return (root / "gradebook" / "feedback" / student / tc.A / "tiny.html").read_text()


def test_originals_stay_where_they_were_submitted(plain):
    root, kept = plain
    for path, data in kept.items():
        assert path.exists() and path.read_bytes() == data, f"{path} was changed or moved by autograde"
    assert not (root / "gradebook" / "submitted" / "renamed" / tc.A / tc.NAME).exists()
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:  # graded from the copies
        assert {s: gb.find_submission(tc.A, s).score for s in ("corrupt", "renamed")} == {"corrupt": 0, "renamed": 1}


def test_every_incident_reaches_the_students_feedback(plain):
    root, _ = plain
    assert "could not be read as a notebook" in feedback(root, "corrupt")
    page = feedback(root, "renamed")
    assert f"you submitted this notebook as <code>{RENAMED}</code>" in page
    assert "Notes from the grader" in page and "data.txt was set aside (it is a symbolic link)" in page
    assert str(root) not in page  # the instructor's paths are left out


def test_the_class_report_lists_what_plain_autograde_met(plain):
    root, _ = plain
    page = report.write(root).read_text()
    assert "None recorded" not in page
    for who, what in (("corrupt", "is not a readable notebook"), ("renamed", "is graded as tiny.ipynb"),
                      ("renamed", "data.txt was set aside")):
        assert any(i["student"] == who and what in i["message"]
                   for i in judge_records.read_incidents(judge_records.records_dir(root))), (who, what)
        assert what in page


def test_a_regrade_reports_the_same_case_again(plain):
    root, kept = plain
    nbgrader(root, "autograde", tc.A, "--student=corrupt", "--force")
    found = incidents.read(root, tc.A, "corrupt")
    assert found and "is not a readable notebook" in found[0]["message"]
    assert all(p.read_bytes() == data for p, data in kept.items())


# -- the parts on their own ------------------------------------------------------------------------

def test_a_submissions_file_holds_its_latest_grading_and_outranks_the_pipelines_list(tmp_path):
    incidents.record(tmp_path, "a1", "amy", incidents.KERNEL, "amy: notebook execution stopped early: memory")
    incidents.record(tmp_path, "a1", "amy", incidents.INTAKE, "a.ipynb graded as a blank submission", noted=True)
    assert incidents.read(tmp_path, "a1", "amy") == [
        {"kind": "kernel", "message": "notebook execution stopped early: memory"},
        {"kind": "intake", "message": "a.ipynb graded as a blank submission", "noted": True}]
    folder = judge_records.records_dir(tmp_path)
    (folder / "incidents.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (
        {"assignment": "a1", "student": "amy", "kind": "kernel", "message": "an older grading's"},
        {"assignment": "a1", "student": "amy", "kind": "failed", "message": "could not be graded (exit 1)"},
        {"assignment": "a1", "student": "bob", "kind": "judge", "message": "only the pipeline saw it"})))
    got = [(i["student"], i["message"]) for i in judge_records.read_incidents(folder)]
    assert ("amy", "an older grading's") not in got
    assert {("amy", "could not be graded (exit 1)"), ("bob", "only the pipeline saw it"),
            ("amy", "notebook execution stopped early: memory")} <= set(got)
    incidents.clear(tmp_path, "a1", "amy")  # a new grading: nothing went wrong (yet)
    assert incidents.read(tmp_path, "a1", "amy") == []
    assert ("amy", "notebook execution stopped early: memory") not in [
        (i["student"], i["message"]) for i in judge_records.read_incidents(folder)]


def test_the_note_lists_what_the_notebook_does_not_already_say(tmp_path):
    from course.grading.autograde.preprocessors import incident_notes
    found = [{"kind": "intake", "message": f"x.txt was set aside (a link) in {tmp_path}/gradebook/rejected/amy"},
             {"kind": "intake", "message": "a.ipynb graded as a blank submission", "noted": True},
             {"kind": "judge", "message": "```\n![x](http://example.org/x.png)"}]
    text = incident_notes.note(found, str(tmp_path))
    assert "x.txt was set aside (a link) in gradebook/rejected/amy" in text and str(tmp_path) not in text
    assert "graded as a blank" not in text
    body = text.split("```text\n", 1)[1].rsplit("\n```", 1)[0]
    assert all(ln.startswith("- ") for ln in body.splitlines())  # nothing a student wrote can close the block
    assert incident_notes.note(found[1:2], str(tmp_path)) is None


def test_the_note_is_the_first_cell_of_the_graded_notebook(tmp_path, monkeypatch):
    from course.grading.autograde.preprocessors import incident_notes
    incidents.record(tmp_path, "a1", "amy", incidents.REPAIRED, "cell t1: source changed; restored from the gradebook")
    monkeypatch.setattr(incidents, "course_root", lambda step: str(tmp_path))  # as under an nbgrader command
    step = incident_notes.NoteIncidents()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    nb, _ = step.preprocess(nb, {"nbgrader": {"assignment": "a1", "student": "amy"}})
    assert nb.cells[0].cell_type == "markdown" and "cell t1: source changed" in nb.cells[0].source
    assert os.path.exists(incidents.path(tmp_path, "a1", "amy"))  # kept for the class report
