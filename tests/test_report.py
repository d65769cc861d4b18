"""The class report (course.grading.report) and the judge's records it reads
(course.grading.records.judge_records, written by JudgeHiddenChecks).

A synthetic class: a gradebook made with nbgrader's API and one judge record per student. The page
shows the gradebook's and the records' numbers, escapes what students chose, says what is missing
instead of failing, and in Debian's chromium (Playwright, as tests/test_student_browser.py) draws
every plot. The screenshot goes to gradebook/screenshots/class-report.png (ignored by git).
"""
import json
import logging
import os
import re
import shutil
import sys

import pytest
from nbgrader.api import Gradebook
from traitlets.config import Configurable

from course import REPO_ROOT
from course.grading.records import judge_records
from course.grading.report import page as report
from course.grading.autograde.preprocessors import hidden_checks as pp
from course.grading.records import incidents as incident_records
from course.grading.report import plots
from course.judge.results import NO_GPU_FAILED, NO_GPU_SKIPPED, Results

A = "15-01"
HOSTILE = '<script>alert("id")</script>'
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = REPO_ROOT / "gradebook" / "screenshots"
# nbgrader's own add_submission warns about its session
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")


def check(name, status, task="softplus", message="", seconds=0.5):
    return {"nodeid": f"tests/{A}/test_x.py::{name}", "name": name, "title": f"{name} works", "task": task,
            "status": status, "message": message, "weight": 1.0, "seconds": seconds, "seed": 7}


# per student: score of each grade cell (softplus_tests: 3 points, clamp_tests: 2), and the judge's checks
# A GPU check on a machine without CUDA: failed under grading (without COURSE_ALLOW_CPU_GRADING), else skipped.
GPU_FAILED = NO_GPU_FAILED + ": grade on a GPU node (or set COURSE_ALLOW_CPU_GRADING=1 to skip GPU checks)"
CLASS = {
    "alice": ((3.0, 2.0), [check("test_often", "passed"), check("test_sometimes", "passed"),
                           check("test_gpu", "skipped", task="clamp", message=NO_GPU_SKIPPED + " (skipped)")]),
    "bob": ((1.5, 2.0), [check("test_often", "failed", message="wrong value"), check("test_sometimes", "passed"),
                         check("test_gpu", "failed", task="clamp", message=GPU_FAILED)]),
    HOSTILE: ((0.0, 1.0), [check("test_often", "failed", message=HOSTILE * 50, seconds=40.0),
                           check("test_sometimes", "failed", message="x"),
                           check("test_gpu", "failed", task="clamp", message=GPU_FAILED)]),
}
EMPTY = ("00-01", "00-02")  # assignments of the gradebook nobody handed in yet
REGRADE = "graded again with nothing beside it, because in its first grading the kernel did not start"


def make_class(root, monkeypatch, records=True):
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    (root / "gradebook").mkdir(parents=True)
    with Gradebook(report.default_db_url(root)) as gb:
        for empty in EMPTY:
            gb.add_assignment(empty)
        gb.add_assignment(A)
        gb.add_notebook("nb", A)
        for cell, points, task in (("softplus_tests", 3, "softplus"), ("clamp_tests", 2, "clamp")):
            gb.add_grade_cell(cell, "nb", A, max_score=points, cell_type="code")
            gb.add_source_cell(cell, "nb", A, cell_type="code", source=f'run_hidden("{A}", "{task}", globals())')
        for student, (scores, _) in CLASS.items():
            gb.add_student(student)
            sub = gb.add_submission(A, student)
            for grade in sub.notebooks[0].grades:
                grade.auto_score = scores[0] if grade.name == "softplus_tests" else scores[1]
        gb.db.commit()
    if records:
        for student, (_, checks) in CLASS.items():
            res = Results.from_dict({"seed": 7, "checks": checks, "events": [f"event of {student}"],
                                     "judge_seconds": sum(c["seconds"] for c in checks)})
            judge_records.write(judge_records.records_dir(root), judge_records.make(
                {"assignment": A, "student": student, "notebook": "nb"}, res))
        ghost = Results.from_dict({"seed": 1, "checks": [check("test_sometimes", "failed")]})  # no longer graded
        judge_records.write(judge_records.records_dir(root), judge_records.make({"assignment": A, "student": "ghost"},
                                                                                ghost))
        (judge_records.records_dir(root) / "incidents.jsonl").write_text(
            json.dumps({"assignment": A, "student": HOSTILE, "kind": "timeout", "message": "<b>ran past</b>"})
            + "\nnot json\n"
            + json.dumps({"assignment": A, "student": "bob", "kind": "regraded", "message": REGRADE}) + "\n")
        # the grading again alone recorded why in bob's own incident file (its feedback says so too)
        incident_records.clear(root, A, "bob")
        incident_records.record(root, A, "bob", incident_records.REGRADED, REGRADE)
    return report.write(root)


def rows(page: str) -> list[list[str]]:
    return [re.findall(r"<td>(.*?)</td>", r, re.S) for r in re.findall(r"<tr>(.*?)</tr>", page, re.S)]


def test_numbers_come_from_the_gradebook_and_the_records(tmp_path, monkeypatch):
    page = make_class(tmp_path, monkeypatch).read_text()
    by_title = {r[1]: r for r in rows(page) if len(r) == 5}
    assert by_title["test_often works"] == ["softplus", "test_often works", "2", "3", "67 %"]
    assert by_title["test_sometimes works"] == ["softplus", "test_sometimes works", "1", "3", "33 %"]
    assert "test_gpu works" not in by_title, "a check skipped everywhere has no failure rate"
    assert page.index("test_often works") < page.index("test_sometimes works"), "worst first"
    tasks = {r[0]: r[1:] for r in rows(page) if len(r) == 4 and r[0].endswith(")")}
    assert tasks["softplus_tests (softplus)"] == ["1.50", "3", "50 %"]  # (3 + 1.5 + 0) / 3
    assert tasks["clamp_tests (clamp)"] == ["1.67", "2", "83 %"]
    assert "3 submissions; mean 3.17, median 3.50 of 5 points" in page
    slow = [r for r in rows(page) if len(r) == 4 and r[3] == "3"]
    assert slow[0][:3] == [A, "&lt;script&gt;alert(&quot;id&quot;)&lt;/script&gt;", "41.0"], slow
    assert page.count('<img class="plot" src="data:image/png;base64,') == 3


def test_what_the_class_did_not_learn(tmp_path, monkeypatch):
    """GPU checks that could not run here are apart and in no failure rate; assignments without submissions
    are one line; the overload regrade is listed once; the first section says how the class did and
    what it failed most."""
    page = make_class(tmp_path, monkeypatch).read_text()
    rates = report.check_rates(judge_records.read_all(judge_records.records_dir(tmp_path)))[A]
    assert [r["title"] for r in rates] == ["test_often works", "test_sometimes works"], rates
    apart = page[page.index("Checks that could not run here (no GPU)"):]
    assert ["clamp", "test_gpu works", "2", "1"] in rows(apart)
    assert "No submissions yet: 00-01, 00-02." in page
    assert "Assignment 00-01" not in page and "Assignment 00-02" not in page
    assert page.count(REGRADE) == 1, "the overload regrade, once"
    glance = page[page.index("At a glance"):page.index(f"Assignment {A}")]
    assert page.index("At a glance") < page.index(f"Assignment {A}")
    first = next(r for r in rows(glance) if r and r[0] == A)
    assert first[1:6] == ["3", "5", "3.17 (63 %)", "3.50 (70 %)", "1.00 (20 %)"], first
    assert first[6].startswith("softplus: test_often works (67 % failed)") and "test_gpu" not in first[6], first
    assert "could not run here (no GPU)" in glance


def test_histogram_bars_fit_the_points():
    """One point a bar up to 30 points (15 and 18 never share one, the old 5 bars of 4.8 points on 24
    put them together); at most 30 bars; the maximum in the last bar."""
    import bisect
    for top in range(18, 31):
        edges = plots.bin_edges(top, [15, 18])
        assert bisect.bisect_right(edges, 15) != bisect.bisect_right(edges, 18), (top, edges)
        assert edges[0] == 0 and edges[-1] == top
    assert len(plots.bin_edges(100)) - 1 <= 30 and plots.bin_edges(100)[-1] == 100


def test_plot_labels_are_whole():
    """Two checks whose titles differ only after 60 characters stay two different labels, each whole."""
    base = "softplus: matches torch.nn.functional.softplus for large inputs with beta "
    a, b = base + "= 2 and threshold = 20", base + "= 0.5 and threshold = 1"
    wa, wb = plots.wrap(a), plots.wrap(b)
    assert wa != wb and " ".join(wa.split("\n")) == a and " ".join(wb.split("\n")) == b
    assert max(len(line) for line in wa.split("\n")) <= 48


def test_student_strings_are_escaped(tmp_path, monkeypatch):
    page = make_class(tmp_path, monkeypatch).read_text()
    assert "<script" not in page and "<b>" not in page
    assert "&lt;b&gt;ran past&lt;/b&gt;" in page  # the pipeline's incident
    assert "event of &lt;script&gt;" in page  # the judge's events, from the records
    record = json.loads(next((judge_records.records_dir(tmp_path) / A).glob(judge_records.DIGEST_MARK + "*.json")).read_text())
    assert record["student"] == HOSTILE, "the record keeps the id as data; its file name is a digest"
    assert len(record["checks"][0]["message"]) < 400, "messages are capped in the record"


def test_missing_records_say_so(tmp_path, monkeypatch):
    page = make_class(tmp_path, monkeypatch, records=False).read_text()
    assert "No judge records found in" in page
    assert "3 submissions" in page, "the gradebook's scores are still shown"
    empty = report.write(tmp_path / "nothing").read_text()
    assert "No gradebook at" in empty and "No judge records found" in empty
    assert not (tmp_path / "nothing" / "gradebook" / "gradebook.db").exists(), "no empty gradebook made"


class Converter(Configurable):
    """Stands for nbgrader's converter: JudgeHiddenChecks finds the course root through its parents."""
    def __init__(self, root, **kw):
        super().__init__(**kw)
        self.coursedir = type("CourseDirectory", (), {"root": str(root)})()


def test_judge_step_writes_one_record_per_notebook(tmp_path, monkeypatch, caplog):
    res = {"seed": 3, "checks": [check("test_often", "failed", message="m" * 5000)], "events": [], "judge_seconds": 2.5}
    monkeypatch.setattr(pp, "_test_cells", lambda nb: [(None, [(A, "softplus")])])
    monkeypatch.setattr(pp, "_judge", lambda *a: Results.from_dict(res))
    monkeypatch.setattr(pp, "_snapshot", lambda nb: "not written")
    monkeypatch.setattr(pp.JudgeHiddenChecks, "_write_verdict", lambda *a: None)
    nb = type("Nb", (), {"cells": []})()
    resources = {"nbgrader": {"assignment": A, "student": "../../carol", "notebook": "nb"}}
    step = pp.JudgeHiddenChecks(parent=Converter(tmp_path / "course"))
    step.preprocess(nb, resources)
    written = list((tmp_path / "course" / "gradebook" / "records" / A).iterdir())
    assert len(written) == 1 and written[0].name.startswith(judge_records.DIGEST_MARK) and written[0].suffix == ".json", written
    record = json.loads(written[0].read_text())
    assert record["student"] == "../../carol" and record["judge_seconds"] == 2.5 and record["seed"] == 3
    assert record["checks"][0]["status"] == "failed" and len(record["checks"][0]["message"]) < 400
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with caplog.at_level(logging.WARNING):
        pp.JudgeHiddenChecks(records_dir=str(blocked)).preprocess(nb, resources)  # cannot write: grading goes on
    assert [r for r in caplog.records if "record of this notebook was not written" in r.getMessage()]


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed "
                    "(make setup installs it with apt-get when run as root)")
def test_report_in_a_browser(tmp_path, monkeypatch):
    playwright = pytest.importorskip("playwright.sync_api")
    path = make_class(tmp_path, monkeypatch)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            dialogs = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            images = page.eval_on_selector_all("img.plot", "els => els.map(e => [e.complete, e.naturalWidth, e.alt])")
            headings = page.locator("h1, h2, h3").all_inner_texts()
            glance = page.locator("table").first.bounding_box()  # the first screen answers the question
            first_screen = page.locator("table").first.inner_text()
            page.screenshot(path=str(SHOTS / "class-report.png"), full_page=True)
        finally:
            browser.close()
    assert len(images) == 3 and all(done and width > 0 for done, width, _ in images), images
    for h in ("Class report", f"Assignment {A}", "Incidents", "Slowest submissions"):
        assert h in headings, headings
    assert any("what the class did not learn" in h for h in headings), headings
    assert headings.index("At a glance") < headings.index(f"Assignment {A}"), headings
    assert glance["y"] + glance["height"] <= 900, glance
    assert "test_often works (67 % failed)" in first_screen and "mean" in first_screen, first_screen
    assert not dialogs, f"a student's string ran as script: {dialogs}"
