"""How a probe talks to the ranks it forks (tests/15-08, tests/16-04): length-prefixed frames on a pipe per
rank, read until every pipe closes or a deadline passes, and the ranks' sessions killed and counted after.
Probes ``from course.judge.ranks import ...``; what the ranks run stays in each topic's probes."""
from __future__ import annotations

import io
import os
import select
import signal
import struct
import time

import torch


def send_frame(fd: int, obj) -> None:
    """Write obj (torch.save'd) to fd as one frame: its length as 8 bytes, then the bytes."""
    bio = io.BytesIO()
    torch.save(obj, bio)
    data = bio.getvalue()
    view = memoryview(struct.pack(">Q", len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def read_frames(fds: dict, deadline: float, max_reply: int) -> tuple[dict, set]:
    """Frames per rank until every pipe closes or the deadline passes; a rank that sends more than max_reply
    bytes is no longer read. Returns (frames, ranks whose pipe is still open)."""
    bufs = {r: b"" for r in fds}
    frames = {r: [] for r in fds}
    open_ = set(fds)
    while open_:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fds[r] for r in open_], [], [], min(left, 0.5))
        for r in [r for r in open_ if fds[r] in ready]:
            chunk = os.read(fds[r], 1 << 20)
            if not chunk:
                open_.discard(r)
                continue
            bufs[r] += chunk
            if len(bufs[r]) > max_reply:
                open_.discard(r)
                continue
            while len(bufs[r]) >= 8:
                (n,) = struct.unpack(">Q", bufs[r][:8])
                if len(bufs[r]) < 8 + n:
                    break
                frames[r].append(torch.load(io.BytesIO(bufs[r][8:8 + n]), weights_only=True))
                bufs[r] = bufs[r][8 + n:]
    return frames, open_


def session_members(sids) -> int:
    """How many live processes still belong to the sessions sids (the forked ranks lead one each)."""
    n = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) in sids:  # fields: state ppid pgrp session
            n += 1
    return n


def kill_sessions(pids) -> None:
    """SIGKILL each rank's process group, or the rank itself where it left its group."""
    for pid in pids:
        for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                kill()
            except OSError:
                pass
