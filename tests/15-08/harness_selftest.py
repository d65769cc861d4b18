"""Self-test of the 15-08 rank harness (instructor-only; not collected with the hidden suite).

    .venv/bin/python -m pytest tests/15-08/harness_selftest.py -q

It runs ``probes.run_world`` directly on small namespaces: a deadlock ends at the group's timeout,
an endless loop at the deadline, nothing a rank started survives, and the message log sees every
way of sending (``from torch.distributed import isend``, ``batch_isend_irecv``, blocking ``send``).
"""
import os
import runpy
import time
from pathlib import Path

import torch

P = runpy.run_path(str(Path(__file__).with_name("probes.py")))

SRC = '''
import os, subprocess, time
import torch
import torch.distributed as dist
from torch.distributed import isend, irecv

def all_send_first(x):
    r, n = dist.get_rank(), dist.get_world_size()
    dist.send(x, (r + 1) % n)
    out = torch.empty_like(x)
    dist.recv(out, (r - 1) % n)
    return out

def spin(x):
    while True:
        pass

def start_sleeper(x):
    p = subprocess.Popen(["sleep", "60"])
    open(os.path.join(os.environ["PIDS"], str(p.pid)), "w").close()
    return x

def imported_isend(x):
    r, n = dist.get_rank(), dist.get_world_size()
    out = torch.empty_like(x)
    reqs = [isend(x, (r + 1) % n), irecv(out, (r - 1) % n)]
    for q in reqs:
        q.wait()
    return out

def batched(x):
    r, n = dist.get_rank(), dist.get_world_size()
    out = torch.empty_like(x)
    ops = [dist.P2POp(dist.isend, x, (r + 1) % n), dist.P2POp(dist.irecv, out, (r - 1) % n)]
    for q in dist.batch_isend_irecv(ops):
        q.wait()
    return out

def backend_all_reduce(x):
    y = x.clone()
    dist.distributed_c10d._get_default_group()._get_backend(torch.device("cpu")).allreduce([y]).wait()
    return y

def uses_all_reduce(x):
    y = x.clone()
    dist.all_reduce(y)
    return y
'''


def namespace():
    ns = {"__name__": "__main__"}
    exec(compile(SRC, "<cell 1>", "exec"), ns)
    return ns


def case(world, n=5):
    return [{"name": "a", "what": "a", "args": [(torch.full((n,), float(r)),) for r in range(world)]}]


def test_deadlock_ends_at_the_group_timeout():
    t0 = time.monotonic()
    r = P["run_world"](namespace(), "all_send_first", 2, case(2), op_timeout=2.0, deadline_s=20.0)
    assert time.monotonic() - t0 < 12
    errors = [f["error"]["message"].lower() for frames in r["ranks"] for f in frames if f["error"]]
    assert errors and any("timed out" in e for e in errors), r
    assert r["left_behind"] == 0


def test_endless_loop_is_killed_at_the_deadline():
    t0 = time.monotonic()
    r = P["run_world"](namespace(), "spin", 3, case(3), op_timeout=2.0, deadline_s=3.0)
    assert time.monotonic() - t0 < 10
    assert r["timed_out"] == [0, 1, 2]
    assert r["left_behind"] == 0
    out = P["run_worlds"](namespace(), "spin", [{"world": 2, "cases": case(2)}, {"world": 3, "cases": case(3)}],
                          op_timeout=2.0, deadline_s=2.0)
    assert len(out) == 1  # the second world is not started after a hang


def test_nothing_a_rank_starts_survives(tmp_path):
    os.environ["PIDS"] = str(tmp_path)
    r = P["run_world"](namespace(), "start_sleeper", 2, case(2), op_timeout=2.0, deadline_s=10.0)
    pids = [int(p.name) for p in tmp_path.iterdir()]
    assert len(pids) == 2 and r["left_behind"] == 0
    time.sleep(0.2)
    for pid in pids:
        try:
            os.kill(pid, 0)
            alive = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            alive = False
        assert not alive, f"sleeper {pid} survived"


def test_every_way_of_sending_is_logged():
    for fn in ("imported_isend", "batched"):
        r = P["run_world"](namespace(), fn, 3, case(3, n=7), op_timeout=5.0, deadline_s=20.0)
        for rank, frames in enumerate(r["ranks"]):
            (f,) = frames
            assert f["error"] is None, f["error"]
            assert [(s["dst"], s["bytes"]) for s in f["sends"]] == [((rank + 1) % 3, 28)], (fn, f["sends"])
            assert [x["bytes"] for x in f["recvs"]] == [28]
            assert torch.equal(f["result"]["tensor"], torch.full((7,), float((rank - 1) % 3)))
    r = P["run_world"](namespace(), "uses_all_reduce", 2, case(2), op_timeout=5.0, deadline_s=20.0)
    assert [c["name"] for c in r["ranks"][0][0]["collectives"]] == ["allreduce"]
    r = P["run_world"](namespace(), "backend_all_reduce", 2, case(2), op_timeout=5.0, deadline_s=20.0)
    assert r["ranks"][0][0]["error"] is None, r["ranks"][0][0]["error"]
    assert [c["name"] for c in r["ranks"][0][0]["collectives"]] == ["allreduce"]
