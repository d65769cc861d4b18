"""Two students never share a record file (red team 13).

``gradebook/records/<assignment>/<student>.incidents.jsonl`` and ``<student>.json`` are named by the
student id where it is a harmless file name, else by a digest of it. The digest used to start with
"_", which a harmless id may start with too, and an LMS id may be any word characters
(``lms_names.ID``): a student whose LMS name was "_" + the first 24 hex digits of sha256("josé") (a
Moodle user may edit their name) shared josé's files, so each grading of one emptied the other's
incidents (measured through plain ``nbgrader autograde``: the attacker's two incidents, a link set
aside and a renamed notebook, were gone from the class report once josé was graded after them) and
each judge record replaced the other's.

And what a run remembers of a submission (``batch.fingerprint``, the resume's key) tells two different
submissions apart: it hashed names and bytes one after the other, so bytes moved from one file into
the file before it hashed the same."""
import hashlib

from course.grading.class_run import batch
from course.grading.intake import lms_names
from course.grading.records import incidents, judge_records

VICTIM = "josé"
OLD_DIGEST = "_" + hashlib.sha256(VICTIM.encode()).hexdigest()[:24]  # the old file name of VICTIM


def test_a_digest_shaped_id_is_a_usable_lms_id():
    assert lms_names.student_id(VICTIM) == VICTIM
    assert lms_names.student_id(OLD_DIGEST) == OLD_DIGEST
    assert lms_names.parse(f"{OLD_DIGEST}_123_assignsubmission_file_x.ipynb", "15-01", False).student == OLD_DIGEST


def test_no_harmless_name_is_anothers_digest():
    for unsafe in (VICTIM, "a b", "..", "x/y", "Ωmega", "", "a" * 101):
        name = judge_records.file_name(unsafe)
        assert name.startswith(judge_records.DIGEST_MARK)
        assert not judge_records._SAFE_NAME.fullmatch(name)
        assert lms_names.student_id(name) is None  # no student can be given this id
    for safe in ("alice", OLD_DIGEST, "_x", "a.b", "9", "@b"):
        assert judge_records.file_name(safe) == safe


def test_a_classmates_digest_as_an_id_keeps_its_own_records(tmp_path):
    root, a = tmp_path, "15-01"
    assert incidents.path(root, a, OLD_DIGEST) != incidents.path(root, a, VICTIM)
    incidents.clear(root, a, OLD_DIGEST)
    incidents.record(root, a, OLD_DIGEST, "intake", "evidence.txt was set aside (it is a symbolic link)")
    incidents.clear(root, a, VICTIM)  # the victim graded after the attacker
    incidents.record(root, a, VICTIM, "judge", "the victim's own line")
    assert [i["message"] for i in incidents.read(root, a, OLD_DIGEST)] == [
        "evidence.txt was set aside (it is a symbolic link)"]
    assert [i["message"] for i in incidents.read(root, a, VICTIM)] == ["the victim's own line"]
    shown = {(i["student"], i["message"]) for i in judge_records.read_incidents(judge_records.records_dir(root))}
    assert (OLD_DIGEST, "evidence.txt was set aside (it is a symbolic link)") in shown
    assert (VICTIM, "the victim's own line") in shown
    folder = judge_records.records_dir(root)
    for student in (OLD_DIGEST, VICTIM):
        judge_records.write(folder, {"assignment": a, "student": student, "checks": []})
    assert sorted(r["student"] for r in judge_records.read_all(folder)) == sorted([OLD_DIGEST, VICTIM])


def test_a_changed_submission_never_has_its_old_fingerprint(tmp_path):
    def handed_in(student, files):
        folder = tmp_path / "gradebook" / "submitted" / student / "15-01"
        folder.mkdir(parents=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        return batch.fingerprint(tmp_path, "15-01", student, "key")

    nb, stamp = b'{"cells": []}', b"2026-12-03 12:00:00.000000 UTC"
    before = handed_in("x", {"a.bin": b"X", "b.bin": b"Y", "nb.ipynb": nb, "timestamp.txt": stamp})
    after = handed_in("y", {"a.bin": b"X" + b"b.bin\0Y", "nb.ipynb": nb, "timestamp.txt": stamp})
    same = handed_in("z", {"a.bin": b"X", "b.bin": b"Y", "nb.ipynb": nb, "timestamp.txt": stamp})
    assert before != after
    assert before == same


def _deep(top, levels=15, name=253, leaf=255):
    """A tree deeper than PATH_MAX (4096 bytes) under ``top``, made through folder descriptors: 15 folders of
    253-byte names and a file of a 255-byte name, the most collect's walk took before red team 17."""
    import os
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for k in range(levels):
            n = f"{k:02d}" + "d" * (name - 2)
            os.mkdir(n, dir_fd=fd)
            sub = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = sub
        f = os.open("f" * leaf, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(f, b"deep")
        os.close(f)
    finally:
        os.close(fd)


def test_a_submission_deeper_than_path_max_never_stops_the_run(tmp_path):
    """Red team, 2026-12-04 (seventeenth): collect copied a student's folder through descriptors, 15 folders of
    255-byte names and a file deep (4,100 bytes and more under gradebook/submitted/<student>/<assignment>/), and
    the pipeline's ``batch.decide`` fingerprints every submission of the run by whole paths first: ENAMETOOLONG
    on that one file stopped the run for the class before anyone was graded. A fingerprint now reads through
    folder descriptors (and collect refuses a path of more than 1,024 bytes, tests/test_exchange_intake.py)."""
    import os
    from pathlib import Path
    a, s = "red-team-a", "deep"
    folder = tmp_path / "gradebook" / "submitted" / s / a
    folder.mkdir(parents=True)
    (folder / "answer.ipynb").write_text("{}")
    _deep(str(folder))
    fp = batch.fingerprint(Path(tmp_path), a, s, "key")  # raised OSError (File name too long) before
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    leaf = os.open("/".join(f"{k:02d}" + "d" * 251 for k in range(15)) + "/" + "f" * 255, os.O_WRONLY, dir_fd=fd)
    os.write(leaf, b"DEEP")
    os.close(leaf)
    os.close(fd)
    assert batch.fingerprint(Path(tmp_path), a, s, "key") != fp, "the deepest file's bytes are not in the fingerprint"
