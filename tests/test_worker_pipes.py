"""The judge never blocks on a worker's pipes: a request is written by its deadline, and what a
worker sends before it has read the request (frames a submission writes of its own) is drained."""
import os
import subprocess
import sys
import time

import pytest

from course.judge.adapter import _write_all

FLOOD = ("import os, sys, time\n"
         "os.write(1, b'x' * (1 << 20))  # fills the pipe back long before the judge reads it\n"
         "time.sleep(60)\n")
DEAF = "import time; time.sleep(60)  # never reads its stdin\n"


def _worker(code):
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def test_a_worker_that_floods_its_pipe_back_is_drained_not_waited_on():
    proc = _worker("import os, sys\nos.write(1, b'x' * (1 << 18))\nsys.stdin.buffer.read(1 << 18)\n")
    try:
        t0 = time.monotonic()
        dropped = _write_all(proc.stdin.fileno(), b"r" * (1 << 18), time.monotonic() + 30, proc,
                             proc.stdout.fileno())
        assert dropped > 0 and time.monotonic() - t0 < 20
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("code", [FLOOD, DEAF], ids=["flooding", "deaf"])
def test_a_request_nobody_reads_ends_at_its_deadline(code):
    proc = _worker(code)
    try:
        t0 = time.monotonic()
        with pytest.raises(TimeoutError):
            _write_all(proc.stdin.fileno(), b"r" * (1 << 20), time.monotonic() + 2, proc, proc.stdout.fileno())
        assert time.monotonic() - t0 < 10
    finally:
        proc.kill()
        proc.wait()


# A worker that reads one request, then answers with the frame in the file named by argv[1], written in
# pieces of argv[2] bytes through a pipe it has shrunk to one page (F_SETPIPE_SZ), as a submission can.
REPLAYER = ("import fcntl, os, struct, sys\n"
            "n, = struct.unpack('>Q', os.read(0, 8))\n"
            "while n: n -= len(os.read(0, min(n, 1 << 16)))\n"
            "fcntl.fcntl(1, 1031, 4096)\n"
            "frame = open(sys.argv[1], 'rb').read()\n"
            "piece = int(sys.argv[2])\n"
            "for i in range(0, len(frame), piece): os.write(1, frame[i:i + piece])\n"
            "os.read(0, 1)\n")


def _frame(value, tmp_path, name="frame.bin") -> str:
    import io
    import struct

    import torch
    bio = io.BytesIO()
    torch.save({"seq": 1, "ok": True, "value": value}, bio)
    path = tmp_path / name
    path.write_bytes(struct.pack(">Q", len(bio.getvalue())) + bio.getvalue())
    return str(path)


def _judge_side(frame: str, piece: int):
    """A ProcessStudent (the judge's side) talking to REPLAYER as its worker."""
    from course.judge.adapter import ProcessStudent
    st = ProcessStudent([], {}, sandboxed=False)
    st.proc = subprocess.Popen([sys.executable, "-c", REPLAYER, frame, str(piece)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, start_new_session=True)
    st._log = open(os.devnull, "rb")
    return st


def _deflated(path: str) -> int:
    """Rewrite the frame at ``path`` with every record of its zip deflated; the bytes its records hold."""
    import io
    import struct
    import zipfile
    data = open(path, "rb").read()[8:]
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for info in src.infolist():
            z.writestr(info.filename, src.read(info.filename))
    with open(path, "wb") as fh:
        fh.write(struct.pack(">Q", len(out.getvalue())) + out.getvalue())
    return sum(i.file_size for i in src.infolist())


def test_a_reply_whose_zip_records_are_deflated_is_refused_not_inflated(tmp_path):
    """torch.load inflates deflated records to the size the zip claims, in the judge's memory, outside
    every sandbox's cap: a few hundred kB from a worker must not become gigabytes there."""
    import torch

    from course.judge.adapter import StudentCrashed
    path = _frame(torch.zeros(96 * 2**20, dtype=torch.uint8), tmp_path)
    held = _deflated(path)
    sent = os.path.getsize(path)
    assert sent < 2**20 < held  # the frame as the worker sends it, and what its records would inflate to
    st = _judge_side(path, 1 << 16)
    try:
        try:
            value = st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
        except StudentCrashed as exc:
            assert "compressed record" in str(exc), str(exc)
        else:
            pytest.fail(f"a reply frame of {sent} bytes whose records were deflated was read back as a "
                        f"{type(value).__name__} holding {held} bytes; expected it refused as not plain")
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()


def test_a_plain_reply_still_reads(tmp_path):
    import torch
    path = _frame([torch.arange(6.0).reshape(2, 3), "text", {"k": 3}], tmp_path)
    st = _judge_side(path, 1 << 16)
    try:
        got = st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
        assert torch.equal(got[0], torch.arange(6.0).reshape(2, 3)) and got[1:] == ["text", {"k": 3}]
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()


def test_a_frame_sent_a_page_at_a_time_costs_the_judge_linear_cpu(tmp_path):
    """Reading must not copy what it read before at every piece: through a one-page pipe the old reader
    spent 8.8 s of the judge's CPU on 8 MiB and 33 s on 16 MiB (a 512 MiB frame, the cap, held a core
    outside every sandbox's share for a call's whole limit); 32 MiB must take well under a second."""
    import resource

    import torch

    from course.judge.adapter import StudentTimeout
    path = _frame(torch.zeros(32 * 2**20, dtype=torch.uint8), tmp_path)
    st = _judge_side(path, 4096)
    try:
        before = resource.getrusage(resource.RUSAGE_SELF)
        try:
            got = st._request({"op": "call", "probe": "p"}, 20, what="running check 'p'")
        except StudentTimeout:
            pytest.fail("a 32 MiB reply sent in 4096-byte pieces was not read within 20 s; expected it read in "
                        "well under 1.5 s of CPU (reading should be linear in the frame's size)")
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        assert got.numel() == 32 * 2**20
        assert cpu < 1.5, (f"a 32 MiB reply sent in 4096-byte pieces cost the judge {cpu:.2f} s of CPU to read; "
                           "expected well under 1.5 s (reading should be linear in the frame's size)")
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()


def test_a_reply_that_claims_more_elements_than_it_sent_is_refused(tmp_path):
    """A view with a stride of 0 over one value claims 2**31 elements in a frame of about 1 kB; a check's
    ``.double()`` or a failure message's ``.flatten()`` (expect._fmt) would make 16 GiB of them real in the
    judge, outside every sandbox's memory cap."""
    import torch

    from course.judge.adapter import StudentCrashed
    path = _frame({"values": torch.zeros(1, dtype=torch.float64).expand(2**31)}, tmp_path)
    st = _judge_side(path, 1 << 16)
    try:
        try:
            got = st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
        except StudentCrashed as exc:
            assert "elements" in str(exc), str(exc)
        else:
            pytest.fail(f"a reply of {os.path.getsize(path)} bytes was read back with a tensor of "
                        f"{got['values'].numel()} elements; expected it refused as not plain")
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()


def _lying_scalar():
    """A 0-dim tensor whose own ``detach`` is the class torch.Tensor: ``got.detach()`` is then an empty tensor,
    which broadcasts against any 0-dim expected value and so compares close to it."""
    import torch
    t = torch.tensor(123.0)
    t.detach = torch.Tensor
    return t


def _hidden_values():
    """An OrderedDict whose own ``values`` is the class set: a check looping over ``got.values()`` sees nothing."""
    import collections

    import torch
    d = collections.OrderedDict(first=torch.tensor(1.0), second=torch.tensor(2.0))
    d.values = set
    return d


@pytest.mark.parametrize("make", [_lying_scalar, _hidden_values], ids=["tensor", "ordereddict"])
def test_a_reply_cannot_hide_a_method_behind_an_attribute_of_its_own(tmp_path, make):
    """torch.load(weights_only=True) restores a tensor's and an OrderedDict's attributes of their own, and an
    instance attribute hides the method of that name: a worker could make its wrong loss pass every 0-dim
    expect_close, or empty the values a check loops over. Such a reply is read as its data only."""
    import torch

    from course.judge.adapter import StudentCrashed
    from course.judge.expect import CheckFailed, expect_close
    st = _judge_side(_frame(make(), tmp_path), 1 << 16)
    try:
        try:
            got = st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
        except StudentCrashed:
            return  # refused whole: fine too
        if isinstance(got, torch.Tensor):
            with pytest.raises(CheckFailed):
                expect_close(got, torch.tensor(0.5, dtype=torch.float64), "loss(x)")
        else:
            assert [float(v) for v in got.values()] == [1.0, 2.0], (
                "a reply's own attribute 'values' hid the OrderedDict's values from the check")
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()


def test_a_reply_of_an_exception_object_is_refused(tmp_path):
    """torch allows builtin exceptions (and traceback's FrameSummary) in a weights_only load; their text is in
    a failed check's repr of the reply but in no record of what the worker said (course.judge.worker_text), so
    it would reach the feedback past the worker-text budget."""
    from course.judge.adapter import StudentCrashed
    st = _judge_side(_frame({"x": ValueError("hidden input 0.1234567 " * 8)}, tmp_path), 1 << 16)
    try:
        with pytest.raises(StudentCrashed, match="not plain data"):
            st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()
