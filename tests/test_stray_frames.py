"""A frame that answers no request stops the worker (red team 14). The judge read a worker's frames until one
carried the pending request's number, decoding each in its own process, outside every sandbox's CPU share: a
submission that wrote one 1 MB frame of 45,000 keys again and again (0.1 ms of its own CPU each, 100 ms of the
judge's to read) kept the judge decoding for each call's whole limit, then answered in time and lost nothing
(measured through the real worker on 00-01: 3.2 s more judge CPU for two calls of 5 s each at a load of 9; a
core for up to the judge's 900 s a submission, while the worker's own slice idles). An honest worker sends
exactly one reply per request, so the first stray frame now ends the call and the worker."""
import os
import resource
import struct
import time

import pytest

from course import wire
from tests.test_worker_pipes import _judge_side


def _frames(tmp_path, strays: int, keys: int) -> str:
    junk = wire.dumps({"seq": -1, "ok": True, "value": {str(i): i for i in range(keys)}})
    real = wire.dumps({"seq": 1, "ok": True, "value": 7})
    path = tmp_path / "frames.bin"
    with open(path, "wb") as fh:
        for _ in range(strays):
            fh.write(struct.pack(">Q", len(junk)) + junk)
        fh.write(struct.pack(">Q", len(real)) + real)
    return str(path)


def test_a_frame_that_answers_no_request_ends_the_call(tmp_path):
    from course.judge.adapter import StudentCrashed
    st = _judge_side(_frames(tmp_path, strays=40, keys=20_000), 1 << 16)
    pid = st.proc.pid
    t0 = resource.getrusage(resource.RUSAGE_SELF)
    try:
        try:
            value = st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
        except StudentCrashed as exc:
            assert "did not ask for" in str(exc), str(exc)
        else:
            pytest.fail(f"40 frames that answer no request were read and decoded, then {value!r} returned")
        t1 = resource.getrusage(resource.RUSAGE_SELF)
        cpu = t1.ru_utime + t1.ru_stime - t0.ru_utime - t0.ru_stime
        assert cpu < 1.0, f"the judge spent {cpu:.2f} s of CPU on a worker's stray frames"
        assert st.proc is None and any("answers no request" in e for e in st.events), st.events
    finally:
        try:
            os.killpg(pid, 9)
        except ProcessLookupError:
            pass


def test_the_reply_to_the_request_still_reads(tmp_path):
    st = _judge_side(_frames(tmp_path, strays=0, keys=1), 1 << 16)
    try:
        assert st._request({"op": "call", "probe": "p"}, 60, what="running check 'p'") == 7
    finally:
        os.killpg(st.proc.pid, 9)
        st.proc.wait()
