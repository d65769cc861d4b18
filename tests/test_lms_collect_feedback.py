"""What zip_collect refused reaches the class report and, for a student who is graded, their feedback:
the real commands (`nbgrader zip_collect`, `autograde`, `generate_feedback`) with the course's
configuration, on the tiny course (tests/tiny_course.py). About 20 s of CPU (four nbgrader commands),
so it runs with COURSE_TEST_LMS_E2E=1, not in `make test`, where tests/test_lms_collect.py checks the
intake itself and ``lms_incidents.for_student``."""
import io
import os
import subprocess
import sys
import zipfile

import nbformat
import pytest

from course import tool_env
from course.grading.records import judge_records
from tests import tiny_course as tc

pytestmark = pytest.mark.skipif(not os.environ.get("COURSE_TEST_LMS_E2E"),
                                reason="zip_collect to feedback, end to end: set COURSE_TEST_LMS_E2E=1 (about 20 s)")


def nbgrader(root, *args):
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, capture_output=True, text=True,
                          env=dict(tool_env(), COURSE_ALLOW_CPU_GRADING="1"), timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]


def zipped(entries: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tc.make(tmp_path_factory.mktemp("lms") / "course")
    (root / "gradebook").mkdir()
    nbgrader(root, "generate_assignment", tc.A, "--force")
    work = nbformat.writes(tc.source_notebook()).encode()
    archive = root / "downloaded" / tc.A / "archive"
    archive.mkdir(parents=True)
    (archive / "submissions.zip").write_bytes(zipped({
        "mallory_7_70_work.zip": zipped({tc.NAME: work, "old.zip": zipped({tc.NAME: work})}),
        f".._8_80_{tc.NAME}": work}))
    nbgrader(root, "zip_collect", tc.A, "--force")
    nbgrader(root, "autograde", tc.A, "--force")
    nbgrader(root, "generate_feedback", tc.A, "--force")
    return root


def test_a_graded_students_zip_collect_incident_is_in_their_feedback(graded):
    page = (graded / "gradebook" / "feedback" / "mallory" / tc.A / "tiny.html").read_text()
    assert "Notes from the grader" in page and "is an archive inside an archive: not opened" in page


def test_the_class_report_lists_each_zip_collect_incident_once(graded):
    found = [(i["student"], i["message"]) for i in judge_records.read_incidents(judge_records.records_dir(graded))
             if "zip_collect" in i["message"] or "not usable" in i["message"]]
    assert [s for s, _ in found].count("mallory") == 1 and [s for s, _ in found].count("") == 1, found
