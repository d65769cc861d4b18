"""Red team, 2026-12-05 (twenty-third, host side): students reach what is not theirs (issue 38).

- the gradebook's password typed in ``--db`` stayed on the pipeline's and ``cluster submit``'s own command line for
  the whole run, which every account on the machine reads in ``/proc/<pid>/cmdline``;
- ``pipeline.forget_old_examples`` deleted records by ``*/<id>.*``: a student ``ex-complete.bob`` lost their judge
  record and incident file when the old examples were taken out of the class;
- a name with a Unicode bidirectional control (U+202E and kin) turned the rest of its row of grades.csv, and the
  rest of the formgrader's line, around where they are read as text."""
import os
import signal
import subprocess
import sys
import time

import pytest

from course import REPO_ROOT

A = "15-01"
PASSWORD = "s3cret-pw"
SECRET_URL = f"postgresql+psycopg2://grader:{PASSWORD}@127.0.0.1:9/gradebook"


def _cmdline(pid: int) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return fh.read()


def test_the_pipelines_own_command_line_loses_the_password_before_the_run_goes_on(tmp_path):
    """``python -m course.grading.pipeline --db postgresql+psycopg2://grader:<password>@db/gradebook``: red team 22
    kept the password off the commands the pipeline starts, but its own arguments held it for the whole run (hours of
    grading): any account on the machine read it in ``/proc/<pid>/cmdline`` or ``ps`` (measured: ``nobody`` reads a
    root process's command line) and, with it, writes any grade. The entry point now starts the same process again at
    once with the URL without it, the password in ``PGPASSWORD`` (its environment: only its own account reads it)."""
    root = tmp_path / "course"
    root.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k not in ("PGPASSWORD", "PYTEST_CURRENT_TEST")}
    env.update(COURSE_SANDBOX="off", PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "course.grading.pipeline", "--root", str(root), "--no-examples",
                             "--steps", "report", "--db", SECRET_URL], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    try:
        deadline = time.monotonic() + 120
        for line in proc.stdout:
            seen.append(line)
            if "password was on this command line" in line or time.monotonic() > deadline:
                break
        os.kill(proc.pid, signal.SIGSTOP)  # the run as it goes on, held still while it is read
        args = _cmdline(proc.pid)
        with open(f"/proc/{proc.pid}/environ", "rb") as fh:
            environ = fh.read()
    finally:
        proc.kill()
        proc.communicate()
    assert any("password was on this command line" in x for x in seen), \
        f"the pipeline never said the password was on its command line; its output: {''.join(seen)[-2000:]}"
    assert args, "the pipeline had ended before its command line could be read (expected it still running)"
    shown = args.replace(b"\0", b" ").decode(errors="replace")
    assert PASSWORD.encode() not in args, \
        f"after its notice the pipeline's own command line, which every account reads in /proc/{proc.pid}/cmdline, " \
        f"still holds the gradebook's password: {shown!r} (expected --db without it, the password in PGPASSWORD)"
    assert "--db postgresql+psycopg2://grader@127.0.0.1:9/gradebook" in shown, shown
    assert f"PGPASSWORD={PASSWORD}".encode() in environ.split(b"\0"), "the run still reaches the gradebook"


@pytest.mark.parametrize("form", ["--db URL", "--db=URL"])
def test_the_entry_points_start_again_with_the_password_in_the_environment(monkeypatch, form):
    """Both entry points (``course.grading.pipeline``, ``course.grading.cluster``) call
    ``db_url.reexec_without_password`` before anything else: the same module again, its arguments as they were but
    each URL without its password, which goes into the variable its driver reads; without a password, no restart."""
    from course.grading.records import db_url
    calls = []
    monkeypatch.setattr(os, "execve", lambda path, argv, env: calls.append((path, argv, env)))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    url_args = form.replace("URL", SECRET_URL).split(" ")
    db_url.reexec_without_password("course.grading.cluster", ["submit", "--tasks", "2", *url_args, "--dry-run"])
    assert len(calls) == 1, "a password in the arguments: the entry point starts again without it"
    path, argv, env = calls[0]
    plain = form.replace("URL", "postgresql+psycopg2://grader@127.0.0.1:9/gradebook").split(" ")
    assert argv == [sys.executable, "-m", "course.grading.cluster", "submit", "--tasks", "2", *plain, "--dry-run"], \
        f"started again with {argv} (expected the same arguments, the URL without its password)"
    assert env["PGPASSWORD"] == PASSWORD and env[db_url.MOVED_ENV] == "PGPASSWORD"
    calls.clear()
    db_url.reexec_without_password("course.grading.pipeline", ["--db", "postgresql+psycopg2://grader@db/gb"])
    db_url.reexec_without_password("course.grading.pipeline", ["--root", "/x://y"])
    assert calls == [], "no password: no restart"


def test_cluster_submit_started_again_still_exports_the_password_to_its_tasks(tmp_path):
    """``cluster submit`` started again by its entry point has no password in ``--db`` any more: its batch scripts
    still export it (``PGPASSWORD``, 0700 files), or the tasks on the nodes would not reach the gradebook."""
    env = {k: v for k, v in os.environ.items() if k not in ("PGPASSWORD", "PYTEST_CURRENT_TEST")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    r = subprocess.run([sys.executable, "-m", "course.grading.cluster", "submit", "--root", str(tmp_path),
                        "--tasks", "2", "--db", SECRET_URL, "--assignment", A, "--dry-run"],
                       cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "password was on this command line" in r.stdout, r.stdout
    for name in ("grade.sbatch", "close.sbatch"):
        script = (tmp_path / "gradebook" / "cluster" / name).read_text().splitlines()
        assert f"export PGPASSWORD={PASSWORD}" in script, f"{name} no longer exports the gradebook's password"
        leaks = [x for x in script if PASSWORD in x and not x.startswith("export PGPASSWORD=")]
        assert not leaks, f"{name}: the password in a command's arguments: {leaks}"


def test_taking_the_old_examples_out_of_a_class_deletes_no_students_records(tmp_path, monkeypatch):
    """``forget_old_examples`` took the bundled examples an earlier version graded in the class out of it, and
    deleted ``records/*/<example id>.*``, which also matched the records of a student whose id starts so:
    ``ex-complete.bob`` (an LMS id may hold dots) lost their judge record and incident file (the report's and the
    feedback's account of what they handed in). Only the examples' own record names are deleted now."""
    from course.grading.class_run import pipeline
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    root = tmp_path / "course"
    old = root / "gradebook" / "submitted" / "ex-complete" / A
    old.mkdir(parents=True)
    (old / "timestamp.txt").write_text(pipeline.EXAMPLE_TIMESTAMP + "\n")
    bob = root / "gradebook" / "submitted" / "ex-complete.bob" / A
    bob.mkdir(parents=True)
    (bob / "timestamp.txt").write_text("2026-12-04 10:00:00+00:00")
    records = root / "gradebook" / "records" / A
    records.mkdir(parents=True)
    for sid in ("ex-complete", "ex-complete.bob"):
        (records / f"{sid}.json").write_text("{}")
        (records / f"{sid}.incidents.jsonl").write_text("")
    assert pipeline.forget_old_examples(root, f"sqlite:///{tmp_path / 'gradebook.db'}") == ["ex-complete"]
    left = sorted(p.name for p in records.iterdir())
    assert left == ["ex-complete.bob.incidents.jsonl", "ex-complete.bob.json"], \
        f"taking the old example ex-complete out of the class left records {left} (expected student " \
        "ex-complete.bob's two, the example's gone)"
    assert bob.is_dir() and not old.exists()


BIDI_NAME = {"last_name": "Smith\u202e", "first_name": "Eve\u2067", "email": "\u200feve@example.org"}


def test_a_bidi_control_in_a_name_turns_no_row_of_grades_csv_around(tmp_path, monkeypatch):
    """A last name ending in U+202E (RIGHT-TO-LEFT OVERRIDE; an LMS display name is the student's to edit, and the
    roster reaches the gradebook by ``nbgrader db student import``) showed the rest of that row of grades.csv
    backwards wherever the file is read as text (``cat``, an editor, a mail): ``18.0`` read ``0.81``, and text a name
    placed before the override read as scores. Each bidirectional control is now written visibly, ``<U+202E>``."""
    import csv
    from nbgrader.api import Gradebook
    from course.grading.report.grades_csv import CsvWithStatus
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gb:
        gb.add_assignment(A)
        gb.add_student("eve", **BIDI_NAME)
    dest = tmp_path / "grades.csv"
    with Gradebook(db) as gb:
        CsvWithStatus(to=str(dest)).export(gb)
    text = dest.read_text()
    controls = sorted({f"U+{ord(c):04X}" for c in text if c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                       "\u2066\u2067\u2068\u2069"})
    assert not controls, f"grades.csv holds bidirectional controls {controls} from eve's name {BIDI_NAME} (expected " \
                         "each written as <U+...>: one turns the rest of her row around where the file is read as text)"
    with dest.open(newline="") as fh:
        row = next(csv.DictReader(fh))
    assert (row["last_name"], row["first_name"], row["email"]) == ("Smith<U+202E>", "Eve<U+2067>",
                                                                    "<U+200F>eve@example.org"), row


def test_a_bidi_control_in_a_name_turns_nothing_around_in_the_formgraders_page():
    """The same names in the formgrader's submission page (``EscapeNames``): an override in a name ran on over the
    rest of the page's line; it is now written visibly, as text."""
    from course.grading.report import formgrader_names
    got = formgrader_names.escaped({"last_name": BIDI_NAME["last_name"], "first_name": "<b>" + BIDI_NAME["first_name"]})
    assert got == {"last_name": "Smith&lt;U+202E&gt;", "first_name": "&lt;b&gt;Eve&lt;U+2067&gt;"}, \
        f"the formgrader's names from {BIDI_NAME}: {got} (expected each control as <U+...>, HTML escaped)"


def test_a_display_name_longer_than_a_file_name_stops_no_zip_collect(tmp_path):
    """An id is at most 100 characters, but a folder's name at most 255 bytes: a Canvas display name of 90 CJK
    characters (270 bytes; the name is the student's to edit) made zip_collect's extraction raise
    ``OSError: [Errno 36] File name too long`` and nobody was collected (carol's notebook stayed in the download).
    An id is now also at most 100 bytes in UTF-8: that upload is one line, the class is collected."""
    from tests.test_lms_collect import NB, canvas, run_zip_collect, work, zipped
    long_name = "\u4e2d" * 90
    download = {"submissions.zip": zipped({canvas(long_name, 101, 9001, NB): work("long"),
                                           canvas("carol", 103, 9003, NB): work("carol")})}
    try:
        got, found = run_zip_collect(tmp_path, download)
    except OSError as exc:
        pytest.fail(f"zip_collect with an upload of display name {long_name!r} (270 bytes) raised {exc!r:.200} and "
                    "collected nobody (expected: that upload refused with one line, carol collected)")
    assert sorted(got) == ["carol"] and got["carol"] == {NB: work("carol")}, sorted(got)
    assert len(found) == 1 and "is not usable" in found[0]["message"] and "bytes" in found[0]["message"], found


def test_the_score_table_says_which_ids_only_look_alike(tmp_path, monkeypatch):
    """An LMS display name is the student's to edit: mallory as ``\u0430lice`` (a Cyrillic \u0430) is a student of her
    own, but the score table showed two rows ``alice`` with two scores, and the instructor who copies grades into the
    LMS by name may give either row to either student (``Bob``/``bob`` and a full-width ``\uff42ob`` too; a
    case-insensitive share or database makes those one). The table now ends with a line naming each group of ids that
    look alike, with the characters that tell them apart."""
    from nbgrader.api import Gradebook
    from course.grading.class_run import pipeline
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gb:
        gb.add_assignment(A)
        for sid in ("alice", "\u0430lice", "bob", "Bob", "carol"):
            gb.add_student(sid)
    table = pipeline.score_table(tmp_path, [A], db)
    notes = [x for x in table.splitlines() if x.startswith("look-alike ids")]
    assert len(notes) == 2, f"the score table of alice, \u0430lice (U+0430), bob, Bob and carol:\n{table}\n(expected " \
                            "one line for each group of ids that look alike: alice/\u0430lice and Bob/bob)"
    assert "'\u0430lice' (U+0430 CYRILLIC SMALL LETTER A)" in notes[1] and "'alice'" in notes[1], notes
    assert notes[0].startswith("look-alike ids, 2 students: 'Bob' / 'bob'"), notes
    assert not any("carol" in x for x in notes)
