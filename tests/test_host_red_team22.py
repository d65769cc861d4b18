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
