"""Red team, 2026-12-04 (twenty-first, host side): a student's zip is refused for its number of entries before
zipfile reads its central directory.

``lms_archive.zip_members`` counted a zip's entries only after ``zipfile.ZipFile`` had built an object for every one
of them, so a student's upload of 3,000,000 empty entries (250 MiB, within a student's 256 MiB on disk; 17 MB once
deflated in the LMS's download) cost zip_collect 21.6 s of CPU and 1.6 GB of memory, outside every sandbox, only to
be refused for having more than 10,000 entries. The entries are now counted from the directory's headers first, at
most the limit and one."""
import io
import struct
import time
import zipfile

from course.grading.intake import lms_archive
from tests.test_lms_collect import NB, canvas, run_zip_collect, work, zipped


def many_entries(n: int) -> bytes:
    """A zip whose central directory holds ``n`` entries (one header repeated, each the same empty member):
    made in a moment, however large ``n``; its end record claims one entry (zipfile walks the directory by its
    size, not by that count)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a", b"")
    data = buf.getvalue()
    start = data.index(b"PK\x01\x02")
    end = data.index(b"PK\x05\x06")
    header = data[start:end]
    directory = header * n
    record = bytearray(data[end:])
    struct.pack_into("<HHII", record, 8, 1, 1, len(directory), start)  # entries here, in all, size, offset
    return data[:start] + directory + bytes(record)


def test_many_entries_are_refused_before_zipfile_reads_them():
    n = 1_000_000
    bomb = many_entries(n)
    t0 = time.process_time()
    try:
        lms_archive.zip_members(io.BytesIO(bomb), lms_archive_limit := 10_000)
    except lms_archive.Refused as exc:
        message = str(exc)
    else:
        message = None
    spent = time.process_time() - t0
    assert message == f"has more than {lms_archive_limit} entries", \
        f"a zip of {n} entries ({len(bomb) // 2**20} MiB) with a limit of {lms_archive_limit}: expected refused " \
        f"for its entries, got {message!r}"
    assert spent < 1.0, \
        f"a zip of {n} entries ({len(bomb) // 2**20} MiB) cost {spent:.1f} s of CPU to refuse: each entry was " \
        "parsed before they were counted (expected: refused after 10,001 headers)"


def test_zips_within_the_limit_are_read_as_before():
    """The count agrees with zipfile's: exactly the limit, a zip after a prefix (self-extracting), a ZIP64 end
    record, comments on entries."""
    for n, prefix in ((10_000, b""), (40, b"#!/bin/sh\nexit 0\n" * 100), (70_000, b"x" * 5000)):
        buf = io.BytesIO()
        buf.write(prefix)
        with zipfile.ZipFile(buf, "a" if prefix else "w", zipfile.ZIP_DEFLATED) as z:
            for i in range(n):
                info = zipfile.ZipInfo(f"d/{i}.txt")
                info.comment = b"c" * (i % 5)
                z.writestr(info, b"x" * (i % 50))
        members = lms_archive.zip_members(io.BytesIO(buf.getvalue()), max(n, 10_000))
        assert len(members) == n and all(m.kind == "file" for m in members), \
            f"a zip of {n} entries after a {len(prefix)}-byte prefix: {len(members)} members read"
        if n > 10_000:
            try:
                lms_archive.zip_members(io.BytesIO(buf.getvalue()), n - 1)
            except lms_archive.Refused:
                pass
            else:
                raise AssertionError(f"a ZIP64 zip of {n} entries was not refused with a limit of {n - 1}")


def test_a_students_zip_of_many_entries_is_one_line_and_the_class_is_collected(tmp_path):
    t0 = time.process_time()
    got, found = run_zip_collect(tmp_path, {"submissions.zip": zipped({
        canvas("alice", 1, 2, NB): work("alice"), canvas("mallory", 3, 4, "work.zip"): many_entries(1_000_000)})})
    spent = time.process_time() - t0
    assert got == {"alice": {NB: work("alice")}}, sorted(got)
    assert [i["student"] for i in found] == ["mallory"] and "more than 10000 entries" in found[0]["message"], found
    assert spent < 5.0, f"zip_collect spent {spent:.1f} s of CPU on a download holding a zip of 1,000,000 entries"


def test_an_lms_upload_under_a_classmates_account_name_never_replaces_their_exchange_hand_in(tmp_path):
    """Red team, 2026-12-04 (twenty-first, host side): the README runs ``collect`` then ``zip_collect --force`` in
    every class, and nbgrader's zip_collect empties ``submitted/<id>/<a>/`` before copying. An LMS names its uploader
    by a display name (Canvas's sortable name, Moodle's full name, editable where the site lets users edit names), so
    a student whose LMS name was a classmate's account name ("alice") deleted alice's exchange hand-in and put their
    own upload in its place, with alice's id on it. A submission collect put there (it always writes
    submission_secret.txt; zip_collect takes only notebooks) is now left as it is, with one line that is nobody's,
    and the rest of the class is collected. Runs the real command with the course's config."""
    import json
    import subprocess
    import sys

    from course import REPO_ROOT
    from course.grading.records import lms_incidents
    A = "15-01"
    (tmp_path / "release" / A).mkdir(parents=True)
    (tmp_path / "release" / A / NB).write_bytes(work("nobody"))
    handed_in = tmp_path / "gradebook" / "submitted" / "alice" / A
    handed_in.mkdir(parents=True)
    (handed_in / NB).write_bytes(work("alice"))
    (handed_in / "timestamp.txt").write_text("2026-11-20 10:00:00.000000 UTC")
    (handed_in / "submission_secret.txt").write_text("ab" * 64)
    (tmp_path / "downloaded" / A / "archive").mkdir(parents=True)
    (tmp_path / "downloaded" / A / "archive" / "submissions.zip").write_bytes(zipped({
        canvas("alice", 7, 8, "mallory-as-alice.ipynb"): work("mallory"), canvas("alice", 7, 9, "read me.tar.gz"): b"x",
        canvas("carol", 1, 2, NB): work("carol")}))
    r = subprocess.run([sys.executable, "-m", "nbgrader", "zip_collect", A, "--force",
                        f"--CourseDirectory.root={tmp_path}"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    alice = sorted(p.name for p in handed_in.iterdir())
    assert alice == sorted([NB, "timestamp.txt", "submission_secret.txt"]) and (handed_in / NB).read_bytes() == \
        work("alice"), f"an LMS upload named 'alice' replaced alice's exchange hand-in: the folder now holds {alice} " \
                       f"(expected alice's own {NB}, timestamp.txt and submission_secret.txt)"
    carol = tmp_path / "gradebook" / "submitted" / "carol" / A / NB
    assert carol.is_file() and carol.read_bytes() == work("carol"), r.stderr[-2000:]
    rows = [json.loads(x) for x in lms_incidents.path(tmp_path, A, "zip_collect").read_text().splitlines()]
    said = [x for x in rows if "'alice': an LMS upload under this id" in x["message"]]
    assert len(said) == 1 and said[0]["student"] == "" and "mallory-as-alice" in said[0]["message"], rows
    theirs = [x["message"] for x in rows if x["student"] == "alice"]
    assert not theirs, f"lines about an LMS upload that only claims alice's id are alice's (her feedback and her " \
                       f"report row carry the uploader's names; expected: nobody's): {theirs}"
    assert [x for x in rows if x["student"] == "" and "read me.tar.gz" in x["message"]], rows
    assert lms_incidents.for_student(tmp_path, A, "alice", exchange=True) == [], \
        "autograde's intake of an exchange hand-in still reads zip_collect's lines under its id"


def test_autograde_reads_no_lms_lines_for_an_exchange_hand_in(tmp_path):
    """The same, for zip_collect run before collect (its lines under the id were written before the exchange hand-in
    was there): autograde's intake of a hand-in that came through the exchange reads collect's lines only."""
    from course.grading.records import lms_incidents
    lms_incidents.write(tmp_path, "15-01", [("alice", "'alice_7_9_mail evil@example.org.tar.gz': not opened")])
    lms_incidents.write(tmp_path, "15-01", [("alice", "inbound/alice+15-01+x+y: timestamp.txt is missing")],
                        step="collect")
    assert lms_incidents.for_student(tmp_path, "15-01", "alice", exchange=True) == \
        ["collect: inbound/alice+15-01+x+y: timestamp.txt is missing"]
    assert len(lms_incidents.for_student(tmp_path, "15-01", "alice")) == 2
