"""Red team (issue 38): an LMS download stays within its caps in memory and on disk.

Python's zipfile inflates bzip2 and lzma members without an output limit (937 bytes of bzip2 took
zip_collect to 2.19 GB against a 64 MiB cap, and a MemoryError stopped it for the class), and the caps
were per upload, so one student's several uploads put 1.44 GiB on disk from a 12 kB download. Each case
runs nbgrader's ZipCollectApp with the course's plugins (tests/test_lms_collect.py's run_zip_collect)."""
import io
import struct
import tracemalloc
import zipfile

import pytest

from course.grading.intake import lms_collect
from tests.test_lms_collect import NB, canvas, run_zip_collect, work, zipped

MiB = 2**20


@pytest.fixture
def small_caps(monkeypatch):
    monkeypatch.setattr(lms_collect, "MAX_FILE", MiB)
    monkeypatch.setattr(lms_collect, "MAX_TOTAL", 3 * MiB)


def packed(name: str, method: int, size: int, declared: int | None = None) -> bytes:
    """A zip whose one member ``name`` is ``size`` spaces compressed with ``method`` (written in pieces);
    its headers say it is ``declared`` bytes unpacked, when given (a bomb lies about its size)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        info = zipfile.ZipInfo(name)
        info.compress_type = method
        with z.open(info, "w") as w:
            for _ in range(size // MiB):
                w.write(b" " * MiB)
            w.write(b" " * (size % MiB))
    data = bytearray(buf.getvalue())
    if declared is not None:
        central = data.index(b"PK\x01\x02")
        struct.pack_into("<I", data, 22, declared)  # the local header's uncompressed size
        struct.pack_into("<I", data, central + 24, declared)  # the central directory's
    return bytes(data)


def test_a_bzip2_bomb_is_not_inflated(tmp_path, small_caps):
    bomb = packed(NB, zipfile.ZIP_BZIP2, 48 * MiB, declared=1000)
    assert len(bomb) < 1000
    tracemalloc.start()
    try:
        got, found = run_zip_collect(tmp_path, {"submissions.zip": zipped({
            canvas("alice", 1, 2, NB): work("alice"), canvas("bomber", 3, 4, "work.zip"): bomb})})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == {"alice": {NB: work("alice")}}, sorted(got)
    assert [i["student"] for i in found] == ["bomber"] and "bzip2" in found[0]["message"], found
    assert peak < 16 * MiB, f"zip_collect held {peak / MiB:.0f} MiB while reading a 48 MiB bzip2 member"


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_members_other_than_stored_or_deflate_are_refused_with_one_line(tmp_path, method):
    got, found = run_zip_collect(tmp_path, {"submissions.zip": zipped({
        canvas("alice", 1, 2, NB): work("alice"), canvas("carol", 3, 4, "work.zip"): packed(NB, method, 1000)})})
    assert got == {"alice": {NB: work("alice")}}, sorted(got)
    assert len(found) == 1 and found[0]["student"] == "carol" and "\n" not in found[0]["message"], found
    assert "stored or deflate" in found[0]["message"], found


def test_a_memory_error_is_one_students_incident(tmp_path, monkeypatch):
    real = lms_collect.copy_capped

    def copy_capped(member, out, limit):
        if member.path == "":  # a student's own zip (mallory's greedy.zip), copied before it is opened
            raise MemoryError()
        return real(member, out, limit)

    monkeypatch.setattr(lms_collect, "copy_capped", copy_capped)
    got, found = run_zip_collect(tmp_path, {"submissions.zip": zipped({
        canvas("alice", 1, 2, NB): work("alice"), canvas("mallory", 3, 4, "greedy.zip"): zipped({NB: work("m")})})})
    assert got == {"alice": {NB: work("alice")}}, sorted(got)
    assert [i["student"] for i in found] == ["mallory"] and "memory" in found[0]["message"], found


def test_one_students_uploads_together_stay_within_the_disk_cap(tmp_path, small_caps):
    part = b" " * (MiB - 4096)  # under the file cap, about 1 kB deflated
    uploads = {canvas("dora", 7, 100 + k, f"15-01_part{k}.ipynb"): part for k in range(4)}
    download = zipped({canvas("alice", 1, 2, NB): work("alice"), **uploads})
    assert len(download) < 12_000
    got, found = run_zip_collect(tmp_path, {"submissions.zip": download})
    assert got["alice"] == {NB: work("alice")}
    on_disk = sum(len(data) for data in got.get("dora", {}).values())
    assert on_disk <= 3 * MiB, f"{on_disk} bytes on disk for one student from a {len(download)}-byte download"
    assert [i["student"] for i in found] == ["dora"] and "on disk for this student" in found[0]["message"], found


def test_earlier_attempts_do_not_use_up_the_latest_ones_room(tmp_path, small_caps):
    part = b" " * (MiB - 4096)
    bb = [f"15-01 Custom autograd_erin_attempt_2026-11-2{k}-10-00-00_{NB}" for k in range(5)]
    got, found = run_zip_collect(tmp_path, {"submissions.zip": zipped({
        **{name: part + bytes([48 + k]) for k, name in enumerate(bb)}})})
    assert got == {"erin": {NB: part + b"4"}} and found == [], (sorted(got), found)


def test_zip_collects_submissions_are_not_writable_by_others(tmp_path):
    """Red team (issue 38): nbgrader's zip_collect made gradebook/submitted/<student>/<a>/ with makedirs and
    copied with shutil.copy, under the grader's umask: 0777 folders and 0666 files under umask 0, where any
    account that reaches the folder could plant or replace a file before autograde. Now closed after the copy,
    as collect's are. Runs the real command with the course's config."""
    import os
    import stat
    import subprocess
    import sys

    from course import REPO_ROOT
    (tmp_path / "release" / "15-01").mkdir(parents=True)
    (tmp_path / "release" / "15-01" / NB).write_bytes(work("nobody"))
    (tmp_path / "downloaded" / "15-01" / "archive").mkdir(parents=True)
    (tmp_path / "downloaded" / "15-01" / "archive" / "submissions.zip").write_bytes(
        zipped({canvas("alice", 1, 2, NB): work("alice")}))
    r = subprocess.run([sys.executable, "-m", "nbgrader", "zip_collect", "15-01", "--force",
                        f"--CourseDirectory.root={tmp_path}"], cwd=REPO_ROOT, capture_output=True, text=True,
                       timeout=300, preexec_fn=lambda: os.umask(0))
    top = tmp_path / "gradebook" / "submitted"
    made = [top, *top.rglob("*")]
    assert r.returncode == 0 and (top / "alice" / "15-01" / NB).read_bytes() == work("alice"), r.stderr[-2000:]
    open_to_others = [f"{p.relative_to(tmp_path)} {stat.S_IMODE(p.lstat().st_mode):04o}" for p in made
                      if p.lstat().st_mode & 0o022]
    assert not open_to_others, f"zip_collect left these writable by other accounts: {open_to_others}"


def test_a_whole_download_stays_within_its_disk_cap(tmp_path, small_caps, monkeypatch):
    """Red team (issue 38): the caps were per student, so a download of many small uploads that each unpack to
    the per-student cap filled the disk (a 12 kB upload was 256 MiB on disk; n students, n times that). Now the
    download as a whole has a cap too: the uploads past it are refused one line each, the others collected."""
    import nbformat
    monkeypatch.setattr(lms_collect, "DOWNLOAD_BYTES", 4 * MiB, raising=False)

    def big(who):  # 0.9 MiB unpacked, a few kB in the zip
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(who + " " * (900 * 1024), id="work")])
        return nbformat.writes(nb).encode()
    names = [f"s{i}" for i in range(6)]
    download = zipped({canvas(n, i + 1, 100 + i, NB): big(n) for i, n in enumerate(names)})
    assert len(download) < 100_000
    got, found = run_zip_collect(tmp_path, {"submissions.zip": download})
    assert sorted(got) == names[:4], sorted(got)
    assert sorted(i["student"] for i in found) == names[4:], found
    assert all("whole download" in i["message"] for i in found), found
