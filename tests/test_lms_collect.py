"""zip_collect with Canvas, Moodle and Blackboard downloads (course.grading.intake.lms_collect): a file belongs
to whoever uploaded it. Each case runs nbgrader's own ZipCollectApp (extract, collect, transfer) with
the course's two plugins on real-shaped downloads, and checks gradebook/submitted/ and the incidents."""
import io
import json
import stat
import zipfile

import nbformat
import pytest
from nbgrader.apps.zipcollectapp import ZipCollectApp
from nbgrader.coursedir import CourseDirectory
from traitlets.config import Config

from course.grading.records import judge_records, lms_incidents
from course.grading.intake import lms_collect
from course.grading.intake.lms_names import parse

A = "15-01"
NB = "15-01_custom_autograd.ipynb"
T1, T2, T3 = "2026-11-20-09-00-00", "2026-11-20-10-00-00", "2026-11-21-23-59-59"


def work(who: str) -> bytes:
    """A notebook only ``who`` could have written."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"work of {who}", id="work")])
    return nbformat.writes(nb).encode()


def zipped(entries: dict, links=()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
        for name, target in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, target)
    return buf.getvalue()


def run_zip_collect(root, archive: dict | None = None) -> tuple[dict, list]:
    """Put ``archive`` (name -> bytes, or a dict for a folder) in downloaded/15-01/archive/, run
    nbgrader's zip_collect; ({student: {file: bytes}} of gradebook/submitted/, this run's incidents)."""
    (root / "release" / A).mkdir(parents=True, exist_ok=True)
    (root / "release" / A / NB).write_bytes(work("nobody"))

    def put(folder, entries):
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in entries.items():
            put(folder / name, data) if isinstance(data, dict) else (folder / name).write_bytes(data)

    if archive is not None:
        put(root / "downloaded" / A / "archive", archive)
    c = Config()
    c.CourseDirectory.root = str(root)
    c.CourseDirectory.submitted_directory = "gradebook/submitted"
    c.ZipCollectApp.force = c.ExtractorPlugin.force = True
    c.ZipCollectApp.extractor_plugin = "course.grading.intake.lms_collect.LmsExtractor"
    c.ZipCollectApp.collector_plugin = "course.grading.intake.lms_collect.LmsCollector"
    app = ZipCollectApp(config=c)
    app.coursedir = CourseDirectory(parent=app)
    app.coursedir.assignment_id = A
    app.init_plugins()
    app.extract_archive_files()
    app.process_extracted_files()
    got = {}
    for d in sorted((root / "gradebook" / "submitted").glob("*")):
        got[d.name] = {f.name: f.read_bytes() for f in (d / A).iterdir() if f.name != "timestamp.txt"}
    found = [i for i in judge_records.read_incidents(judge_records.records_dir(root)) if i["kind"] == "intake"]
    return got, found


def canvas(name, uid, fid, file, late=False):
    return f"{name}_{'LATE_' if late else ''}{uid}_{fid}_{file}"


def blackboard(user, time, file=None):
    return f"15-01 Custom autograd_{user}_attempt_{time}" + (f"_{file}" if file else ".txt")


def moodle(name, pid):
    return f"{name}_{pid}_assignsubmission_file_"


# mallory's own upload claims alice and bob by folder and carol by a later Blackboard attempt
ATTACK = zipped({f"alice/{NB}": work("mallory as alice"), f"bob/{NB}": work("mallory as bob"),
                 blackboard("carol", T3, NB): work("mallory as carol")})
LAYOUTS = {
    "Canvas": {"submissions.zip": zipped({
        canvas("alice", 101, 9001, NB): work("alice"), canvas("carol", 103, 9003, NB): work("carol"),
        canvas("mallory", 104, 9004, "my work.zip"): ATTACK})},
    "Moodle": {"PT-15-01-Custom autograd-4242.zip": zipped({
        f"{moodle('Alice Liddell', 11)}/{NB}": work("alice"), f"{moodle('Carol Ann', 13)}{NB}": work("carol"),
        "Alice Liddell_11_assignsubmission_onlinetext_/onlinetext.html": b"<p>see the notebook</p>",
        f"{moodle('Mal Lory', 14)}/work.zip": ATTACK})},
    "Blackboard": {f"gradebook_PT101_15-01 Custom autograd_{T3}.zip": zipped({
        blackboard("alice", T1): b"Name: Alice (alice)\n", blackboard("alice", T1, NB): work("alice"),
        blackboard("carol", T2, NB): work("carol"), blackboard("mallory", T1, "work.zip"): ATTACK})},
    "plain folders": {"alice": {NB: work("alice")}, "carol": {NB: work("carol")},
                      "mallory": {"work.zip": ATTACK}},
}
IDS = {"Canvas": ("alice", "carol", "mallory"), "Moodle": ("Alice-Liddell", "Carol-Ann", "Mal-Lory"),
       "Blackboard": ("alice", "carol", "mallory"), "plain folders": ("alice", "carol", "mallory")}


@pytest.mark.parametrize("lms", LAYOUTS)
def test_names_inside_an_upload_belong_to_its_uploader(tmp_path, lms):
    got, found = run_zip_collect(tmp_path, LAYOUTS[lms])
    alice, carol, mallory = IDS[lms]
    assert got[alice] == {NB: work("alice")} and got[carol] == {NB: work("carol")}, got
    assert "bob" not in got and NB not in got.get(mallory, {}), got
    assert [i["student"] for i in found] == [mallory], found  # the two copies of NB in mallory's zip
    assert "2 different notebooks named" in found[0]["message"]


def test_a_dot_dot_id_is_refused_and_nothing_leaves_submitted(tmp_path):
    got, found = run_zip_collect(tmp_path, {canvas("..", 1, 2, NB): work("x"), canvas(".", 3, 4, NB): work("y"),
                                            canvas("alice", 5, 6, NB): work("alice")})
    assert got == {"alice": {NB: work("alice")}}
    assert not (tmp_path / "gradebook" / A).exists() and not (tmp_path / "gradebook" / NB).exists()
    assert len(found) == 2 and all(i["student"] == "" and "not usable" in i["message"] for i in found), found


@pytest.mark.parametrize("name", ["..", ".", ".hidden", "-rf", "a\x01b", "a\nb", "x" * 101, "a;b", "é/..", "a\\b"])
def test_unusable_ids_are_refused_with_one_line(name):
    who = parse(canvas(name, 1, 2, NB), A, folder=False)
    assert isinstance(who, str) and "not usable" in who and "\n" not in who


@pytest.fixture
def small_caps(monkeypatch):
    monkeypatch.setattr(lms_collect, "MAX_FILE", 2**20, raising=False)
    monkeypatch.setattr(lms_collect, "MAX_TOTAL", 3 * 2**20, raising=False)


def test_bad_archives_refuse_only_their_uploader(tmp_path, small_caps):
    bad = {
        "corrupt": b"PK\x03\x04 not a zip at all",
        "link": zipped({NB: work("b")}, links=[("notes.ipynb", "/etc/passwd")]),
        "climbs": zipped({f"../../{NB}": work("b")}),
        "absolute": zipped({f"/tmp/{NB}": work("b")}),
        "bomb": zipped({NB: b" " * (8 * 2**20)}),
        "many": zipped({f"{k}/{NB[:-6]}-{k}.ipynb": b" " * (2**20 - 100) for k in range(4)}),
    }
    archive = {canvas(f"b{k}", 10 + k, 20 + k, f"{why}.zip"): data for k, (why, data) in enumerate(bad.items())}
    got, found = run_zip_collect(tmp_path, {"submissions.zip": zipped({canvas("alice", 1, 2, NB): work("alice"),
                                                                      **archive})})
    assert got == {"alice": {NB: work("alice")}}, sorted(got)
    assert sorted(i["student"] for i in found) == [f"b{k}" for k in range(len(bad))], found
    assert all("nothing in it was collected" in i["message"] for i in found), found


def test_one_zip_level_is_opened_and_an_archive_inside_it_is_not(tmp_path):
    mine = zipped({f"hw/{NB}": work("dave"), "data.zip": zipped({"15-01_other.ipynb": work("dave 2")}),
                   f"__MACOSX/hw/._{NB}": b"\0\5\26\7", f"hw/.ipynb_checkpoints/{NB}": work("old dave")})
    got, found = run_zip_collect(tmp_path, {canvas("dave", 1, 2, "hw.zip"): mine})
    assert got == {"dave": {NB: work("dave")}}, got
    assert len(found) == 1 and "archive inside an archive" in found[0]["message"], found


def test_the_latest_attempt_wins_per_student(tmp_path):
    got, found = run_zip_collect(tmp_path, {
        blackboard("carol", T2, NB): work("carol 2"), blackboard("carol", T1, NB): work("carol 1"),
        blackboard("carol", T1, "notes.pdf"): b"%PDF", blackboard("erin", T1, NB): work("erin"),
        canvas("frank", 7, 70, NB, late=True): work("frank late"), canvas("frank", 7, 71, NB): work("frank"),
    })
    assert got == {"carol": {NB: work("carol 2")}, "erin": {NB: work("erin")},
                   "frank": {NB: work("frank late")}}, got
    stamp = (tmp_path / "gradebook" / "submitted" / "carol" / A / "timestamp.txt").read_text()
    assert stamp.startswith("2026-11-20 10:00:00") and not found, (stamp, found)


def test_same_rank_duplicates_and_shared_ids_refuse_only_that_student(tmp_path):
    got, found = run_zip_collect(tmp_path, {
        canvas("gina", 8, 80, NB): work("gina"), canvas("gina", 8, 81, "again.zip"): zipped({NB: work("gina 2")}),
        canvas("hal", 9, 90, NB): work("hal"), canvas("hal", 9, 91, "same.zip"): zipped({NB: work("hal")}),
        canvas("smithjohn", 10, 100, NB): work("john 1"), canvas("smithjohn", 11, 110, NB): work("john 2"),
        canvas("alice", 1, 2, NB): work("alice"),
    })
    assert got == {"alice": {NB: work("alice")}, "hal": {NB: work("hal")}}, got
    assert sorted(i["student"] for i in found) == ["gina", "smithjohn"], found
    assert "2 different uploaders" in next(i["message"] for i in found if i["student"] == "smithjohn")


def test_an_unzipped_download_in_a_folder_of_its_own_is_refused_with_the_fix(tmp_path):
    got, found = run_zip_collect(tmp_path, {"submissions": {canvas("alice", 1, 2, NB): work("alice")},
                                            "carol": {NB: work("carol")}})
    assert got == {"carol": {NB: work("carol")}}, got
    assert [i["student"] for i in found] == ["submissions"] and "LMS-named files" in found[0]["message"]


def test_a_zip_in_archive_is_an_lms_download_so_its_names_must_be_lms_names(tmp_path):
    got, found = run_zip_collect(tmp_path, {"alice.zip": zipped({NB: work("alice")}),
                                            "bob": {"bob.zip": zipped({NB: work("bob")})}})
    assert got == {"bob": {NB: work("bob")}}, got
    assert len(found) == 1 and "a student's own zip goes in a folder named after them" in found[0]["message"]


def test_files_left_in_extracted_are_not_collected(tmp_path):
    (tmp_path / "downloaded" / A / "extracted" / "eve").mkdir(parents=True)
    (tmp_path / "downloaded" / A / "extracted" / "eve" / NB).write_bytes(work("eve"))
    got, _ = run_zip_collect(tmp_path)
    assert got == {}, got


def test_a_second_run_replaces_the_assignments_intake_incidents(tmp_path):
    _, first = run_zip_collect(tmp_path, {canvas("..", 1, 2, NB): work("x")})
    (tmp_path / "downloaded" / A / "archive" / canvas("..", 1, 2, NB)).unlink()
    _, second = run_zip_collect(tmp_path, {canvas("alice", 1, 2, NB): work("alice")})
    assert len(first) == 1 and second == []


@pytest.mark.parametrize("name,lms,student,file", [
    (canvas("smithjohn", 12345, 67890, NB), "Canvas", "smithjohn", NB),
    (canvas("j_smith", 444, 555, f"{NB[:-6]}-1.ipynb"), "Canvas", "j_smith", f"{NB[:-6]}-1.ipynb"),
    (canvas("smithjohn", 12345, 67890, NB, late=True), "Canvas", "smithjohn", NB),
    (f"{moodle('Jane Doe', 123456)}{NB}", "Moodle", "Jane-Doe", NB),
    (blackboard("jsmith@uni.edu", T1, NB), "Blackboard", "jsmith@uni.edu", NB),
    (f"alice_{NB}", "plain", "alice", NB),
    (f"frank_attempt1_{NB}", "plain", "frank_attempt1", NB),  # the id is everything before _15-01_
    (f"x_y_z_{NB}", "plain", "x_y_z", NB),
    # the LMS's mark comes first: a student's file name that imitates another shape changes nothing
    (canvas("mallory", 1, 2, blackboard("carol", T3, NB)), "Canvas", "mallory", blackboard("carol", T3, NB)),
    (blackboard("mallory", T1, canvas("carol", 1, 2, NB)), "Blackboard", "mallory", canvas("carol", 1, 2, NB)),
    (f"{moodle('Mal', 5)}{canvas('carol', 1, 2, NB)}", "Moodle", "Mal", canvas("carol", 1, 2, NB)),
])
def test_each_shape_names_the_uploader(name, lms, student, file):
    who = parse(name, A, folder=False)
    assert (who.lms, who.student, who.file) == (lms, student, file)


def test_blackboard_attempt_time_is_the_timestamp():
    assert parse(blackboard("alice", T1, NB), A, folder=False).timestamp == "2026-11-20 09:00:00"


@pytest.mark.parametrize("name", ["notes.ipynb", "homework.ipynb", f"_{NB}", NB])
def test_names_that_fit_no_shape_name_nobody(name):
    assert parse(name, A, folder=False) is None


def test_incidents_reach_the_class_report_and_the_uploaders_feedback(tmp_path):
    run_zip_collect(tmp_path, {**LAYOUTS["Canvas"], canvas("..", 1, 2, NB): work("x")})
    recs = [json.loads(line) for line in lms_incidents.path(tmp_path, A).read_text().splitlines()]
    assert [(r["assignment"], r["student"], r["kind"]) for r in recs] == [(A, "", "intake"), (A, "mallory", "intake")]
    assert "'.._1_2_" in recs[0]["message"]
    # autograde's intake records these again as the graded submission's incidents (safe_files)
    mine = lms_incidents.for_student(tmp_path, A, "mallory")
    assert len(mine) == 1 and mine[0].startswith("zip_collect: 2 different notebooks named"), mine
    assert lms_incidents.for_student(tmp_path, A, "alice") == []
