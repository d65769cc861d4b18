"""Red team (issue 38): an inbound folder is one student's data, never a path the grader follows.

nbgrader's collect copied an inbound folder with ``shutil.copytree`` as root: a notebook that was a link to
``source/`` or to a classmate's ``gradebook/submitted/`` was collected as that file (18/18 with no work); a
link to ``/dev/zero`` was copied without end, a FIFO, a dangling link, a folder name or a ``timestamp.txt``
that did not parse stopped collect for the class; a back-dated ``timestamp.txt`` made a late submission on
time. One ``nbgrader collect --update`` here meets all of them at once (a few seconds, no grading), each
from its own account, and every test below checks one of them in its result. The run's file size is
limited (RLIMIT_FSIZE), so the old code's endless copy of /dev/zero ends as a failed run, not a full disk."""
import datetime
import json
import os
import pwd
import resource
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from nbgrader.utils import parse_utc

from course import REPO_ROOT
from course.grading.intake import student_tree
from course.grading.records import lms_incidents, seals

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root: makes folders owned by several accounts")

A = "red-team-b"
NB = "answer.ipynb"


def _when():
    """Now, as nbgrader submit writes it; taken as each folder is made, since collect compares it with the
    folder's change time (a time taken at import is stale when the module runs late in a busy suite)."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


SECRET = "ab" * 64
# accounts every Debian machine has, one a student
HONEST, TO_SOURCE, TO_CLASSMATE, ODD_FILES, DEVICE = "daemon", "bin", "sys", "man", "lp"
FOLDER_LINK, BAD_NAME, BAD_FILES, BACK_DATED, CLASSMATE, RECOLLECTED = "mail", "news", "uucp", "proxy", "games", "irc"


def _own(path, who):
    uid = pwd.getpwnam(who).pw_uid
    os.chown(path, uid, uid, follow_symlinks=False)


def _inbound(inbound, who, files, time=None, name=None):
    time = time or _when()
    d = inbound / (name or f"{who}+{A}+{time}+r{who}")
    d.mkdir(parents=True)
    files = {"timestamp.txt": time.encode(), "submission_secret.txt": SECRET.encode(), **files}
    for fname, data in files.items():
        if data is not None:
            (d / fname).write_bytes(data)
    for p in [d, *d.iterdir()]:
        _own(p, who)
    return d


def _collected(root, who, when, text):
    d = root / "gradebook" / "submitted" / who / A
    d.mkdir(parents=True)
    (d / NB).write_text(text)
    (d / "timestamp.txt").write_text(when)
    (d / "submission_secret.txt").write_text(SECRET)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("intake")
    exchange, root = tmp / "exchange", tmp / "course"
    inbound = exchange / "advanced-pytorch-internals" / "inbound"
    inbound.mkdir(parents=True)
    (root / "source" / A).mkdir(parents=True)
    source_nb = root / "source" / A / NB
    source_nb.write_text("### BEGIN SOLUTION\nthe reference solution\n### END SOLUTION")
    _collected(root, CLASSMATE, _when(), "the classmate's own work")
    _collected(root, RECOLLECTED, "garbage", "an earlier collect")
    (root / "gradebook" / "submitted" / RECOLLECTED / A / "timestamp.txt").write_bytes(b"not a time \xff")

    _inbound(inbound, HONEST, {NB: b"the honest student's work"})
    _inbound(inbound, RECOLLECTED, {NB: b"the new submission"})
    d = _inbound(inbound, TO_SOURCE, {})
    os.symlink(source_nb, d / NB)
    d = _inbound(inbound, TO_CLASSMATE, {})
    os.symlink(root / "gradebook" / "submitted" / CLASSMATE / A / NB, d / NB)
    d = _inbound(inbound, ODD_FILES, {NB: b"odd files' own work"})
    os.symlink("/dev/zero", d / "data.bin")
    os.symlink(tmp / "nowhere", d / "dangling.txt")
    os.symlink("loop.txt", d / "loop.txt")
    os.mkfifo(d / "pipe")
    os.link(source_nb, d / "copy.ipynb")
    short = f"/tmp/.sock-{os.getpid()}"  # a socket path is short: made there, then moved in
    s = socket.socket(socket.AF_UNIX)
    s.bind(short)
    s.close()
    os.rename(short, d / "sock")
    d = _inbound(inbound, DEVICE, {NB: b"device's own work"})
    try:
        os.mknod(d / "zero.bin", stat.S_IFCHR | 0o666, os.makedev(1, 5))
        made_device = True
    except PermissionError:
        made_device = False
    folder_link = inbound / f"{FOLDER_LINK}+{A}+{_when()}+r"
    os.symlink(root / "source" / A, folder_link)
    _own(folder_link, FOLDER_LINK)  # the student's own link: a line of theirs (red team 21: of the maker's)
    _inbound(inbound, BAD_NAME, {NB: b"x"}, name=f"{BAD_NAME}+{A}+notadate+x")
    _inbound(inbound, "root", {NB: b"x"}, name=f"-rf+{A}+{_when()}+x")
    _inbound(inbound, BAD_FILES, {NB: b"bad files' own work", "timestamp.txt": b"\xff\xfe garbage",
                                  "submission_secret.txt": b"\xff\xfe\x00 not UTF-8"})
    made = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - datetime.timedelta(seconds=2)
    _inbound(inbound, BACK_DATED, {NB: b"late work"}, time="2000-01-01 00:00:00.000000 UTC")

    def limits():
        resource.setrlimit(resource.RLIMIT_FSIZE, (32 * 2**20, 32 * 2**20))

    r = subprocess.run([sys.executable, "-m", "nbgrader", "collect", A, "--update", f"--Exchange.root={exchange}",
                        f"--CourseDirectory.root={root}", f"--CourseDirectory.db_url=sqlite:///{tmp / 'gb.db'}"],
                       cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, preexec_fn=limits,
                       env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})
    found = {}
    for line in (lms_incidents.path(root, A, "collect").read_text().splitlines()
                 if lms_incidents.path(root, A, "collect").exists() else []):
        rec = json.loads(line)
        found.setdefault(rec["student"], []).append(rec["message"])
    return {"r": r, "root": root, "found": found, "made_device": made_device, "made": made}


def _submitted(run, who):
    d = run["root"] / "gradebook" / "submitted" / who / A
    return {p.name: p.read_bytes() for p in d.iterdir()} if d.is_dir() else None


def _ok(run):
    assert run["r"].returncode == 0, run["r"].stderr[-3000:]


def test_collect_goes_on_for_the_class(run):
    _ok(run)
    got = _submitted(run, HONEST)
    assert got[NB] == b"the honest student's work" and got["submission_secret.txt"] == SECRET.encode(), got
    d = run["root"] / "gradebook" / "submitted" / HONEST / A
    assert stat.S_IMODE(d.stat().st_mode) == 0o755 and stat.S_IMODE((d / NB).stat().st_mode) == 0o644, \
        "a collected submission must not be writable by others (nbgrader submit makes inbound folders 0777)"
    assert HONEST not in run["found"], run["found"]


def test_a_link_to_the_source_notebook_is_not_collected(run):
    _ok(run)
    got = _submitted(run, TO_SOURCE)
    assert got is not None and NB not in got, got
    assert any(NB in m and "symbolic link" in m for m in run["found"][TO_SOURCE]), run["found"]


def test_a_link_to_a_classmates_submission_is_not_collected(run):
    _ok(run)
    got = _submitted(run, TO_CLASSMATE)
    assert got is not None and NB not in got, got
    assert _submitted(run, CLASSMATE)[NB] == b"the classmate's own work"
    assert any(NB in m and "symbolic link" in m for m in run["found"][TO_CLASSMATE]), run["found"]


def test_links_fifos_sockets_and_hard_links_are_refused_one_line_each(run):
    _ok(run)
    got = _submitted(run, ODD_FILES)
    assert sorted(got) == [NB, "submission_secret.txt", "timestamp.txt"] and got[NB] == b"odd files' own work", \
        sorted(got)
    lines = run["found"][ODD_FILES]
    expected = {"data.bin": "symbolic link to '/dev/zero'", "dangling.txt": "symbolic link", "loop.txt":
                "symbolic link", "pipe": "a FIFO", "sock": "a socket", "copy.ipynb": "hard link"}
    for name, why in expected.items():
        assert [m for m in lines if f": {name} (" in m and why in m], (name, lines)
    assert len(lines) == len(expected) and all("\n" not in m for m in lines), lines


def test_a_device_is_refused(run):
    if not run["made_device"]:
        pytest.skip("this machine does not let root make a device node (no CAP_MKNOD)")
    _ok(run)
    assert _submitted(run, DEVICE)[NB] == b"device's own work"
    assert "zero.bin" not in _submitted(run, DEVICE)
    assert [m for m in run["found"][DEVICE] if "zero.bin (a device)" in m], run["found"][DEVICE]


def test_a_folder_that_is_a_link_is_refused(run):
    _ok(run)
    assert _submitted(run, FOLDER_LINK) is None
    assert [m for m in run["found"][FOLDER_LINK] if "is a symbolic link, not a folder" in m], run["found"]


def test_an_unparsable_folder_name_is_that_students_incident(run):
    _ok(run)
    assert _submitted(run, BAD_NAME) is None
    assert [m for m in run["found"][BAD_NAME] if "'notadate' is not nbgrader's" in m], run["found"]
    assert [m for m in run["found"][""] if "'-rf' is not usable" in m], run["found"]


def test_a_garbage_timestamp_and_a_non_utf8_secret_are_that_students_incidents(run):
    _ok(run)
    got = _submitted(run, BAD_FILES)
    assert got[NB] == b"bad files' own work"
    assert parse_utc(got["timestamp.txt"].decode()) >= run["made"] - datetime.timedelta(minutes=1)
    secret = got["submission_secret.txt"].decode("ascii")
    assert len(secret) == 128 and int(secret, 16) >= 0, "release_feedback reads this secret as text"
    lines = run["found"][BAD_FILES]
    assert [m for m in lines if "timestamp.txt is missing or not a time" in m], lines
    assert [m for m in lines if "submission_secret.txt is not nbgrader's" in m], lines


def test_a_back_dated_timestamp_does_not_make_a_late_submission_on_time(run):
    _ok(run)
    got = _submitted(run, BACK_DATED)
    when = parse_utc(got["timestamp.txt"].decode())
    assert when >= run["made"], f"collected as submitted at {when}, the time the student wrote"
    assert [m for m in run["found"][BACK_DATED] if "says 2000-01-01 00:00:00 UTC" in m], run["found"]


def test_update_over_an_unreadable_collected_timestamp(run):
    _ok(run)
    assert _submitted(run, RECOLLECTED)[NB] == b"the new submission"


def test_caps_count_what_is_read(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for k in range(5):
        (src / f"f{k}").write_bytes(b"x" * 1000)
    (src / "big").write_bytes(b"x" * 5000)
    got = student_tree.walk(str(src), str(tmp_path / "dst"), max_files=3, max_file=4000, max_total=2500)
    assert got.files == 2 and got.bytes == 2000, got
    assert sorted(os.listdir(tmp_path / "dst")) == ["f0", "f1"]
    assert [line.split(" (")[0] for line in got.lines()] == ["big", "f2", "f3", "f4"], got.lines()
    with pytest.raises(student_tree.Refused):
        os.symlink(src, tmp_path / "link")
        student_tree.walk(str(tmp_path / "link"), None, max_files=3, max_file=10, max_total=10)


def test_collects_incidents_reach_the_students_feedback(run):
    """Autograde's intake records a student's collect lines again (lms_incidents.for_student), so the
    feedback says why a linked notebook was graded as blank."""
    _ok(run)
    lines = lms_incidents.for_student(run["root"], A, TO_SOURCE)
    assert lines and all(line.startswith("collect: ") for line in lines), lines
    assert lms_incidents.for_student(run["root"], A, HONEST) == []


def test_a_rewrite_that_keeps_its_change_time_is_late_after_a_deadline_seal():
    """On tmpfs a write through a shared memory mapping never moves a file's change time: a student could
    map their notebook and rewrite it after the deadline, and collect (which dates a submission by its change
    times) took the new text as on time. A collect at the deadline with ``seal_only`` records what each
    inbound folder holds then; files that differ later are dated after that reading."""
    with open("/proc/mounts") as fh:
        if not any(line.split()[1:3] == ["/dev/shm", "tmpfs"] for line in fh):
            pytest.skip("no tmpfs at /dev/shm")
    import mmap
    import shutil
    import tempfile
    import time
    base = tempfile.mkdtemp(dir="/dev/shm", prefix="course-test-seal-")
    try:
        exchange, root = os.path.join(base, "exchange"), os.path.join(base, "course")
        inbound = Path(exchange) / "advanced-pytorch-internals" / "inbound"
        inbound.mkdir(parents=True)
        d = _inbound(inbound, HONEST, {NB: b"the work handed in before the deadline"})
        _inbound(inbound, CLASSMATE, {NB: b"a classmate's work, left as it was"})
        fh = open(d / NB, "r+b")  # mapped, and each page written once, before the deadline
        mm = mmap.mmap(fh.fileno(), 0)
        mm[:1] = b"t"
        time.sleep(0.05)
        before_seal = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)

        def collect(*extra):
            return subprocess.run([sys.executable, "-m", "nbgrader", "collect", A, *extra, f"--Exchange.root={exchange}",
                                   f"--CourseDirectory.root={root}", f"--CourseDirectory.db_url=sqlite:///{base}/gb.db"],
                                  cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})

        try:
            r = collect("--OwnedCollect.seal_only=True")
            assert r.returncode == 0, r.stderr[-3000:]
            submitted = Path(root) / "gradebook" / "submitted" / HONEST / A
            assert not submitted.exists(), "collect with seal_only=True copied the submission; it should only record it"
            times = [os.stat(p).st_ctime for p in (d, d / NB)]
            mm[:11] = b"REWRITTEN: "  # after the seal, through the mapping: its page is already writable
            mm.flush()
        finally:
            mm.close()
            fh.close()
        if [os.stat(p).st_ctime for p in (d, d / NB)] != times:
            pytest.skip("this kernel moved the change time for a write to a page already mapped writable: no attack here")
        r = collect("--update")
        assert r.returncode == 0, r.stderr[-3000:]
        got = {p.name: p.read_bytes() for p in submitted.iterdir()}
        assert got[NB].startswith(b"REWRITTEN: "), got[NB]
        when = parse_utc(got["timestamp.txt"].decode())
        assert when >= before_seal, (f"a notebook rewritten after the deadline's seal (taken after {before_seal} UTC) "
                                     f"was collected as submitted at {when} UTC, its unchanged change time")
        found = [json.loads(x) for x in lms_incidents.path(root, A, "collect").read_text().splitlines()]
        assert [r for r in found if r["student"] == HONEST and "differ from what collect read" in r["message"]], found
        kept = Path(root) / "gradebook" / "submitted" / CLASSMATE / A
        when = parse_utc((kept / "timestamp.txt").read_text())
        assert when < before_seal and not [r for r in found if r["student"] == CLASSMATE], \
            f"a folder left as it was when sealed was collected as submitted at {when} UTC (sealed after " \
            f"{before_seal} UTC), lines {[r for r in found if r['student'] == CLASSMATE]}"
    finally:
        shutil.rmtree(base, ignore_errors=True)  # safe: this test's own folder in /dev/shm


def test_one_digest_for_the_same_files_read_or_copied(tmp_path):
    """collect compares what a deadline's reading saw (files read, not copied) with what it copies later: the
    two walks must agree on unchanged files whatever their times, and differ on one byte of the same size."""
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / NB).write_bytes(b'{"cells": []}')
    (src / "sub" / "data.csv").write_bytes(b"1,2,3\n")
    read = student_tree.walk(str(src), None, max_files=10, max_file=1000, max_total=1000, read=True)
    os.utime(src / NB, (0, 0))
    copied = student_tree.walk(str(src), str(tmp_path / "dst"), max_files=10, max_file=1000, max_total=1000)
    assert read.digest == copied.digest and read.files == copied.files == 2, (read, copied)
    (src / "sub" / "data.csv").write_bytes(b"1,2,4\n")
    again = student_tree.walk(str(src), None, max_files=10, max_file=1000, max_total=1000, read=True)
    assert again.digest != read.digest, "one byte changed in a file of the same size left the digest as it was"


def test_many_folders_of_sparse_files_cost_collect_one_submissions_reading():
    """Red team, 2026-12-02 (sixth): a student may make any number of inbound folders, and collect read every
    one of them whole for its digest. A sparse file of 64 MiB takes no disk, so 4 KiB of a student's disk made
    every collect (a deadline's seal included) read and hash 256 MiB (0.53 s of CPU here): 1,000 folders held
    collect for the class about 9 minutes a run. A student's folders are now read newest first within one
    submission's bytes (and 32 folders), the rest is one line; their newest submission is still collected."""
    import shutil
    import tempfile
    from course.grading.intake.safe_files import MAX_TOTAL as READ_BUDGET  # one submission's bytes
    base = tempfile.mkdtemp(prefix="course-test-sparse-")
    try:
        exchange, root = Path(base) / "exchange", Path(base) / "course"
        inbound = exchange / "advanced-pytorch-internals" / "inbound"
        inbound.mkdir(parents=True)
        spam = 12
        for k in range(spam):  # older names than the real hand-in, made first
            d = _inbound(inbound, ODD_FILES, {}, time=f"2026-01-01 00:00:{k:02d}.000000 UTC")
            for j in range(4):
                with open(d / f"zeros{j}.bin", "wb") as fh:
                    fh.truncate(64 * 2**20)  # sparse: no block on disk
                _own(d / f"zeros{j}.bin", ODD_FILES)
        _inbound(inbound, ODD_FILES, {NB: b"the student's real hand-in"})
        _inbound(inbound, HONEST, {NB: b"the honest student's work"})
        run = ("import runpy, sys\nsys.argv = ['nbgrader'] + sys.argv[1:]\n"
               "try:\n    runpy.run_module('nbgrader', run_name='__main__')\nfinally:\n"
               "    print('RCHAR', open('/proc/self/io').read().split('rchar: ')[1].split()[0], file=sys.stderr)\n")
        r = subprocess.run([sys.executable, "-c", run, "collect", A, f"--Exchange.root={exchange}",
                            f"--CourseDirectory.root={root}", f"--CourseDirectory.db_url=sqlite:///{base}/gb.db"],
                           cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
                           env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})
        assert r.returncode == 0, r.stderr[-3000:]
        got = {p.name: p.read_bytes() for p in (root / "gradebook" / "submitted" / ODD_FILES / A).iterdir()}
        assert got.get(NB) == b"the student's real hand-in" and not [n for n in got if n.startswith("zeros")], sorted(got)
        assert (root / "gradebook" / "submitted" / HONEST / A / NB).read_bytes() == b"the honest student's work"
        read = int(r.stderr.rsplit("RCHAR ", 1)[1].split()[0])
        sparse = spam * 4 * 64 * 2**20
        assert read < READ_BUDGET + sparse // 2, (
            f"collect read {read / 2**20:.0f} MiB for {spam} inbound folders of one student holding "
            f"{sparse // 2**20} MiB of sparse files (4 KiB of disk each): expected at most one submission's reading "
            f"({READ_BUDGET // 2**20} MiB) of one student's folders plus Python's own files")
        found = [json.loads(x) for x in lms_incidents.path(root, A, "collect").read_text().splitlines()]
        assert [f for f in found if f["student"] == ODD_FILES and "older folder(s)" in f["message"]], found
        assert not [f for f in found if f["student"] == HONEST], found
        unread = [s for s in seals.read(root, A) if s["sha256"] == ""]
        assert len(unread) >= spam - 2 and all(s["folder"].startswith(f"{ODD_FILES}+{A}+2026-01-01 ") for s in unread), \
            f"all but the one or two newest of {spam} sparse folders should be sealed as unread (so one read later " \
            f"counts from now), never the real hand-in: {[s['folder'] for s in unread]}"
    finally:
        shutil.rmtree(base, ignore_errors=True)  # safe: this test's own folder


def test_a_folder_of_many_hard_links_is_listed_no_further_than_the_cap(tmp_path):
    """Red team, 2026-12-04 (seventeenth): a hard link costs its maker no inode, so a student's inbound folder can
    hold millions of names (65,000 links of each of a few files; directory blocks are all they pay), and collect
    listed and sorted a folder whole before its 10,000-entry cap: 500,000 names of 248 characters cost each
    collect 0.82 s of CPU and 175 MiB a folder, 32 folders a student. A folder is now read no further than the
    walk can take (0.05 s, 20 MiB); measured here as the walk's peak memory for 40,000 links."""
    import tracemalloc
    d = tmp_path / "f"
    d.mkdir()
    one = tmp_path / "one"
    one.write_text("x")
    for k in range(40_000):
        os.link(one, d / (f"{k:06d}" + "y" * 200))
    tracemalloc.start()
    try:
        got = student_tree.walk(str(d), None, max_files=10, max_file=1000, max_total=1000, read=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got.files == 0 and got.lines()[-1].endswith("more entries refused"), got.lines()
    assert peak < 6 * 2**20, (f"walking a folder of 40,000 hard links took {peak / 2**20:.1f} MiB: it was listed whole, "
                              f"not up to its {student_tree.MAX_ENTRIES}-entry cap")


def test_a_path_longer_than_the_cap_is_refused_at_collect(tmp_path):
    """Red team, 2026-12-04 (seventeenth): collect copies through folder descriptors, so it took 15 folders of
    255-byte names and a file below them, a path past PATH_MAX once under gradebook/submitted/<student>/<a>/,
    where later steps (the run's fingerprints, nbgrader's autograde copy) use whole paths and raised
    ENAMETOOLONG (tests/test_records_names.py). An entry whose path in the folder is longer than 1,024 bytes is
    refused, one line; the rest is collected."""
    from tests.test_records_names import _deep
    src = tmp_path / "src"
    src.mkdir()
    (src / NB).write_text("work")
    _deep(str(src))
    got = student_tree.walk(str(src), str(tmp_path / "dst"), max_files=10, max_file=1000, max_total=10_000)
    longest = max(len(os.fsencode(os.path.relpath(os.path.join(d, n), tmp_path / "dst")))
                  for d, ds, fs in os.walk(tmp_path / "dst") for n in ds + fs)
    assert longest <= 1024, \
        f"collect copied a path of {longest} bytes into the submission"
    assert (tmp_path / "dst" / NB).read_text() == "work"
    assert [x for x in got.lines() if "longer than" in x], got.lines()
