"""Unit checks of the pieces that keep trusted code off paths the sandbox could touch: the intake of
a submitted folder, link-free copies and chmod, hostile worker replies, log escaping, seeds, the
cgroup limits and the sweep of leftovers. (End to end, tests/test_hostile.py grades the attacks.)"""
import logging
import os
import stat
import subprocess
import sys

import pytest
import torch

from course.sandbox import cgroup, tempdirs
from course import plain
from course.grading.intake import safe_files


class Log:
    def __init__(self):
        self.lines = []

    def warning(self, fmt, *args):
        self.lines.append(fmt % args)


def test_intake_sets_aside_everything_but_plain_files(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("solution")
    sub = tmp_path / "submitted" / "alice" / "a1"
    sub.mkdir(parents=True)
    (sub / "a1.ipynb").write_text("{}")
    (sub / "notes.txt").write_text("mine")
    os.symlink(secret, sub / "link.txt")
    os.mkfifo(sub / "pipe")
    os.link(secret, sub / "hard.txt")
    (sub / "bad\nname").write_text("x")
    (sub / "dir").mkdir()
    os.symlink(tmp_path, sub / "dir" / "up")
    with open(sub / "big.bin", "wb") as fh:
        fh.truncate(safe_files.MAX_FILE + 1)
    log = Log()
    lines = safe_files.intake(str(sub), str(tmp_path / "rejected"), {}, log)
    left = sorted(str(p.relative_to(sub)) for p in sub.rglob("*"))
    assert left == ["a1.ipynb", "dir", "notes.txt"], left
    assert len(lines) == 6 and all("\n" not in ln for ln in lines), lines
    assert secret.read_text() == "solution" and (tmp_path / "rejected").is_dir()


def test_intake_replaces_a_linked_notebook_with_the_blank_release(tmp_path):
    source = tmp_path / "source.ipynb"
    source.write_text("SOLUTIONS")
    blank = tmp_path / "release.ipynb"
    blank.write_text("BLANK")
    sub = tmp_path / "submitted" / "bob" / "a1"
    sub.mkdir(parents=True)
    os.symlink(source, sub / "a1.ipynb")
    safe_files.intake(str(sub), str(tmp_path / "rejected"), {"a1.ipynb": str(blank)}, Log())
    assert not (sub / "a1.ipynb").is_symlink() and (sub / "a1.ipynb").read_text() == "BLANK"


def test_intake_replaces_a_linked_student_folder(tmp_path):
    other = tmp_path / "submitted" / "carol" / "a1"
    other.mkdir(parents=True)
    (other / "a1.ipynb").write_text("CAROL")
    os.symlink(tmp_path / "submitted" / "carol", tmp_path / "submitted" / "mallory")
    blank = tmp_path / "release.ipynb"
    blank.write_text("BLANK")
    sub = tmp_path / "submitted" / "mallory" / "a1"
    safe_files.intake(str(sub), str(tmp_path / "rejected"), {"a1.ipynb": str(blank)}, Log())
    assert not sub.parent.is_symlink() and (sub / "a1.ipynb").read_text() == "BLANK"
    assert (other / "a1.ipynb").read_text() == "CAROL"


def test_safe_copy_and_chmod_never_follow_links(tmp_path):
    target = tmp_path / "host.txt"
    target.write_text("host")
    os.chmod(target, 0o600)
    d = tmp_path / "d"
    d.mkdir()
    (d / "own.txt").write_text("own")
    os.symlink(target, d / "link.txt")
    safe_files.set_permissions(str(d), 0o444)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE((d / "own.txt").stat().st_mode) == 0o444
    assert not safe_files.safe_copy(str(d / "link.txt"), str(tmp_path / "copy.txt"))
    os.symlink(target, tmp_path / "dest-link")
    assert safe_files.safe_copy(str(d / "own.txt"), str(tmp_path / "dest-link"))
    assert target.read_text() == "host" and not (tmp_path / "dest-link").is_symlink()


def test_hostile_replies_are_refused_before_formatting():
    cyclic = []
    cyclic.append(cyclic)
    shared = [0]
    for _ in range(40):
        shared = [shared, shared]  # 40 levels, 2**40 leaves when expanded
    deep = []
    for _ in range(100):
        deep = [deep]
    for bad in (cyclic, shared, deep, {"x": "y" * (plain.MAX_TEXT + 1)}):
        with pytest.raises(plain.NotPlain):
            plain.check(bad)
    ok = {"out": torch.zeros(3), "grads": [None, torch.ones(2)], "n": 3, "s": "fine"}
    assert plain.check(ok) is ok


def test_a_cyclic_reply_from_a_worker_is_refused(tmp_path):
    """The real protocol: torch.save of a self-referential list loads with weights_only=True."""
    import io
    x = []
    x.append(x)
    bio = io.BytesIO()
    torch.save({"seq": 1, "ok": True, "value": x}, bio)
    loaded = torch.load(io.BytesIO(bio.getvalue()), weights_only=True)
    with pytest.raises(plain.NotPlain):
        plain.check(loaded)


def test_log_messages_are_one_line():
    from course.grading.config import escape_log_records
    escape_log_records()
    logger = logging.getLogger("course-test-escape")
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger.addHandler(handler)
    logger.warning("%s: done", "x\n[AutogradeApp | WARNING] forged\r\x1b[2K")
    lines = records[0].getMessage().splitlines()
    assert len(lines) == 2 and all(ln.startswith("    | ") for ln in lines[1:]), lines
    assert "\x1b" not in lines[1] and "\r" not in lines[1]


def test_seed_is_stable_and_does_not_reveal_the_salt(monkeypatch):
    from course.grading.autograde.preprocessors import grading_seed
    monkeypatch.setenv("COURSE_SEED_SALT", "271828")
    a, b = grading_seed("15-01", "alice"), grading_seed("15-01", "alice")
    assert a == b and a != grading_seed("15-01", "bob")
    monkeypatch.setenv("COURSE_SEED_SALT", "271829")
    assert grading_seed("15-01", "alice") != a
    import zlib
    assert a != (zlib.crc32(b"15-01/alice") ^ 271828) % 2**31


@pytest.mark.skipif(cgroup.available() is not None, reason=f"no cgroup limits here: {cgroup.available()}")
def test_cgroup_caps_tasks_and_is_removed():
    group = cgroup.Group.create("test", 512 * 2**20, 32)
    code = ("import threading, time\nn = 0\ntry:\n    for _ in range(200):\n"
            "        threading.Thread(target=time.sleep, args=(5,), daemon=True).start(); n += 1\n"
            "except RuntimeError:\n    pass\nprint(n)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       preexec_fn=group.add)
    group.remove()
    assert int(r.stdout.strip()) < 32, r.stdout
    assert not any(os.path.isdir(d) for _, d in group.dirs)


def test_sweep_removes_leftovers_of_dead_runs(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    old = tmp_path / f"course-worker-{dead.pid}-abc"
    old.mkdir()
    os.symlink("/etc", old / "link")
    mine = tmp_path / f"course-worker-{os.getpid()}-abc"
    mine.mkdir()
    assert tempdirs.sweep(str(tmp_path)) == 1
    assert not old.exists() and mine.exists() and os.path.isdir("/etc")


@pytest.mark.parametrize("name", ["empty rows of 2**31 columns", "a Size past int64", "an empty view at offset 2**62"])
def test_a_torch_save_reply_that_misbehaves_when_read_is_refused(name):
    """The same values course/wire.py refuses, sent as torch.save bytes (which the judge still reads): each loads,
    but summing, formatting or indexing it would take gigabytes or raise; plain.check refuses them first."""
    import io
    value = {"empty rows of 2**31 columns": lambda: torch.empty(0, 2**31),
             "a Size past int64": lambda: torch.Size([2**70]),
             "an empty view at offset 2**62": lambda: torch.empty(0).set_(torch.empty(0).untyped_storage(), 2**61,
                                                                         (0,), (1,))}[name]()
    bio = io.BytesIO()
    torch.save({"seq": 1, "ok": True, "value": value}, bio)
    loaded = torch.load(io.BytesIO(bio.getvalue()), weights_only=True)
    with pytest.raises(plain.NotPlain):
        plain.check(loaded, max_elements=len(bio.getvalue()) + 2**24)


def test_an_integer_too_long_to_print_is_refused():
    """torch's loader stops at 255-byte ints and wire's at 1024 bytes; plain.check holds the line for both."""
    assert plain.check(1 << 8000) == 1 << 8000
    with pytest.raises(plain.NotPlain):
        plain.check([1 << 16384])


def _saved(value) -> bytes:
    import io
    bio = io.BytesIO()
    torch.save({"seq": 1, "ok": True, "value": value}, bio)
    return bio.getvalue()


def test_a_torch_save_reply_of_colliding_keys_is_refused_before_it_is_built():
    """Keys of one hash make each dict insert walk all those before it (ints collide at will: hash(n) is n
    modulo 2**61 - 1); torch.load would build them with no limit, so the pickle is walked first."""
    from course.judge.adapter import _value_of
    m = 2**61 - 1
    frame = _saved({1 + i * m: 0 for i in range(20_000)})
    with pytest.raises(plain.NotPlain, match="more than 4096 entries"):
        _value_of(frame)  # refused while walking, before torch.load builds anything
    ok = {1 + i * m: i for i in range(plain.MAX_KEYS)}
    assert _value_of(_saved(ok))["value"] == ok


def test_a_dict_filled_in_several_batches_through_the_memo_is_counted_whole():
    """pickle fills a dict 1000 keys per SETITEMS; a hand-made pickle can come back to it through the memo
    (BINGET) or a DUP and add more batches: the count follows the object, not the opcode."""
    import pickle
    batch = b"(" + b"".join(b"J" + i.to_bytes(4, "little", signed=True) + b"N" for i in range(1000)) + b"u"
    pkl = b"\x80\x02}q\x00" + batch + (b"0h\x00" + batch) * 5 + b"."  # EMPTY_DICT, BINPUT 0, (POP, BINGET 0, batch)*
    assert len(pickle.loads(pkl)) == 1000  # the same keys each time: the pickle is valid
    with pytest.raises(plain.NotPlain):
        plain.scan_pickle(pkl)
    plain.scan_pickle(b"\x80\x02}q\x00" + batch + b".")


@pytest.mark.parametrize("value", [torch.nn.BatchNorm1d(3).state_dict(), {"p": torch.nn.Parameter(torch.ones(2))},
                                   [{i: str(i)} for i in range(3000)], set(range(4000))])
def test_honest_torch_save_replies_still_read(value):
    from course.judge.adapter import _value_of
    got = _value_of(_saved(value))["value"]
    assert type(got) is type(value) and len(got) == len(value)


def test_a_reply_in_torchs_format_from_before_1_6_is_refused():
    import io

    from course.judge.adapter import _value_of
    bio = io.BytesIO()
    torch.save({"seq": 1, "ok": True, "value": 3}, bio, _use_new_zipfile_serialization=False)
    with pytest.raises(plain.NotPlain, match="not a zip"):
        _value_of(bio.getvalue())
