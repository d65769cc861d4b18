"""Judge-side helpers for 15-08: build per-rank cases, run them once per task, read the records.

Each task's checks share one probe call (``run_worlds``): per world size one fresh gloo group runs all
of the task's cases in order, so the group start-up is paid once per task and world size. The record
of every case holds, per rank, what the student's function returned, its tensor arguments afterwards,
and the messages and collectives it issued. The expected values are computed here, from the inputs
the judge made.
"""
from __future__ import annotations

import math
import zlib

import torch

from course.judge.adapter import StudentFailure
from course.judge.expect import expect, fail

OP_TIMEOUT = 5.0    # seconds a gloo operation may wait (a deadlock ends here)
DEADLINE = 15.0     # seconds one world may take in all before its ranks are killed


def task_gen(seed: int, task: str) -> torch.Generator:
    """The inputs of one task under one run seed (``course_seed``: each seed of --notebook-seeds has its own)."""
    return torch.Generator().manual_seed((int(seed) + zlib.crc32(task.encode())) % (2**31))


_RUNS: dict = {}


def cached_runs(student, seed: int, task: str, build) -> "Runs":
    """One probe call per (notebook, seed, task), shared by that task's checks (worlds are costly to start)."""
    key = (id(student), int(seed), task)
    if key not in _RUNS:
        while len(_RUNS) >= 12:
            _RUNS.pop(next(iter(_RUNS)))
        _RUNS[key] = build(task_gen(seed, task))
    return _RUNS[key]


def rand(gen, shape, dtype, low=-1000, high=1000):
    if dtype.is_floating_point:
        return torch.randn(shape, generator=gen, dtype=torch.float64).mul(3).to(dtype)
    return torch.randint(low, high, shape, generator=gen, dtype=dtype)


class Runs:
    """The records of one task's probe calls, or the failure that prevented them. Every world's cases are built
    up front (one generator, in order), but each world's ranks run only when a check first reads that world: a
    known-wrong answer caught on one world does not pay for the others. After a world whose ranks deadlocked no
    other world is started (it would most likely wait just as long)."""

    def __init__(self, student, fn_name: str, worlds: list[dict], backend: str = "gloo"):
        self.worlds = {w["world"]: w for w in worlds}
        self.failure = None
        self.records = {}
        self.stuck = None  # the world whose ranks deadlocked
        self._student, self._fn_name, self._backend = student, fn_name, backend

    def record(self, world: int) -> dict | None:
        """The probe's record of ``world`` ranks, running them first if no check read them yet (None: not run
        because another world deadlocked, or the reply holds no record of it)."""
        if world not in self.records and self.failure is None and self.stuck is None:
            try:
                out = self._student.call("run_worlds", fn_name=self._fn_name, worlds=[self.worlds[world]],
                                         op_timeout=OP_TIMEOUT, deadline_s=DEADLINE, backend=self._backend)
            except StudentFailure as exc:
                self.failure = exc
                raise
            rec = next((r for r in out if isinstance(r, dict) and r.get("world") == world), None)
            self.records[world] = rec
            if rec is not None and _deadlocked(rec):
                self.stuck = world
        if self.failure is not None:
            raise self.failure
        return self.records.get(world)

    def case(self, world: int, name: str) -> tuple[dict, list[dict]]:
        """(the case the judge built, one record per rank) for case ``name`` on ``world`` ranks."""
        spec = self.worlds[world]
        idx = next(i for i, c in enumerate(spec["cases"]) if c["name"] == name)
        case = spec["cases"][idx]
        rec = self.record(world)
        if rec is None and world not in self.records:
            fail(f"on {world} ranks ({case['what']}): not run, because the ranks on {self.stuck} ranks deadlocked "
                 f"(an operation waited {OP_TIMEOUT:.0f} s, or the ranks were killed after {DEADLINE:.0f} s)")
        expect(rec is not None, f"on {world} ranks ({case['what']}): the probe's reply holds no record of "
                                f"{world} ranks")
        expect(rec["left_behind"] == 0, f"on {world} ranks: {rec['left_behind']} process(es) of the ranks were "
                                        f"still running after the grader killed them")
        # the reply's structure against the judge's own inputs: a forged shorter list would compare nothing
        expect(len(rec["ranks"]) == world, f"{case['what']} on {world} ranks: the probe's reply holds records of "
                                           f"{len(rec['ranks'])} rank(s), expected {world}")
        out = []
        for rank, frames in enumerate(rec["ranks"]):
            if len(frames) > idx:
                out.append(frames[idx])
                continue
            fail(self._why_missing(world, rank, idx, case, rec))
        for rank, f in enumerate(out):
            n_args = sum(isinstance(a, torch.Tensor) for a in case["args"][rank])
            expect(f.get("case") == idx and len(f.get("inputs_after") or []) == n_args,
                   f"{case['what']} on rank {rank} of {world}: the probe's record is not this case's (case "
                   f"{f.get('case')!r}, {len(f.get('inputs_after') or [])} argument(s) after the call; expected case "
                   f"{idx}, {n_args})")
        errors = [(r, f["error"]) for r, f in enumerate(out) if f["error"]]
        if errors:
            # a rank that timed out is the cause; the others only saw it leave ("connection closed"), so a
            # rank's own error comes before theirs
            rank, err = min(errors, key=lambda e: (not deadlock_hint(e[1]).startswith(" (a gloo"),
                                                   deadlock_hint(e[1]).startswith(" (another rank"), e[0]))
            hint = deadlock_hint(err)
            fail(f"{case['what']} on {world} ranks: rank {rank} raised {err['type']}: "
                 f"{err['message'][:240]}{hint}")
        return case, out

    def names(self, world: int, prefix: str = "") -> list[str]:
        """The names of every case the judge built for ``world`` ranks (those starting with ``prefix``)."""
        return [c["name"] for c in self.worlds[world]["cases"] if c["name"].startswith(prefix)]

    def _why_missing(self, world, rank, idx, case, rec) -> str:
        frames = rec["ranks"][rank]
        stopped = [f for fr in rec["ranks"] for f in fr if f["error"]]
        stopped.sort(key=lambda f: not deadlock_hint(f["error"]).startswith(" (a gloo"))
        for f in stopped[:1] or frames:
            if f["error"]:
                name = self.worlds[world]["cases"][f["case"]]["what"]
                return (f"{case['what']} on {world} ranks: not reached, because a rank raised in "
                        f"the case {name}: {f['error']['type']}: {f['error']['message'][:200]}"
                        f"{deadlock_hint(f['error'])}")
        if rank in rec["timed_out"]:
            return (f"{case['what']} on {world} ranks: rank {rank} did not finish within {DEADLINE:.0f} s "
                    f"and was killed (a deadlock: every rank waiting for another, or an endless loop)")
        return f"{case['what']} on {world} ranks: rank {rank} ended without a result (it crashed or exited)"


def _deadlocked(rec: dict) -> bool:
    """Whether a world's ranks hit the group's timeout or had to be killed at the deadline."""
    return bool(rec.get("timed_out")) or any(_timed_out((f or {}).get("error")) for frames in rec.get("ranks") or []
                                             for f in frames if isinstance(f, dict))


def _timed_out(err) -> bool:
    msg = (err or {}).get("message", "").lower() if isinstance(err, dict) else ""
    return "timed out" in msg or "timeout" in msg


def deadlock_hint(err: dict) -> str:
    msg = (err.get("message") or "").lower()
    if "timed out" in msg or "timeout" in msg:
        return (f" (a gloo operation waited {OP_TIMEOUT:.0f} s for its partner: a deadlock, e.g. every rank "
                f"sending before anyone receives, or ranks that disagree on the order of their messages)")
    if "connection closed" in msg or "connection reset" in msg:
        return " (another rank stopped while this one was waiting for it)"
    return ""


def on_inputs_device(runs, world: int, names, made_from: str = "x") -> None:
    """No tensor the function made without device= went into a message, a collective or the result (the probe
    records factories called without device= while it runs): on the CPU such a tensor lands where x is, with
    NCCL it lands on the CPU while x is on cuda:rank."""
    for name in names:
        case, frames = runs.case(world, name)
        for rank, f in enumerate(frames):
            bad = f.get("unplaced") or []
            expect(not bad, f"{case['what']} on rank {rank} of {world}: {bad[0] if bad else ''} was made by a "
                            f"factory (torch.empty, torch.zeros, ...) without device=, so it lands on the default "
                            f"device (the CPU) whatever {made_from}'s device; with NCCL {made_from} is on "
                            f"cuda:{rank} and this fails. Make it with torch.empty_like({made_from}), "
                            f"{made_from}.new_empty(...) or device={made_from}.device")


META_WORLDS = (2, 4)  # the worlds whose cases run again with the inputs on the meta device (on_another_device)


def on_another_device(student, seed: int, task: str, runs, fn_name: str, prefix: str = "",
                      made_from: str = "x") -> None:
    """The cases of ``runs`` on META_WORLDS again, with their tensor arguments on the meta device (the grader's
    stand-in for cuda:rank, which its CPU run cannot otherwise give x), each rank played in turn on torch's fake
    process group (no data moves): every tensor sent, received into, handed to a collective or returned must be on
    x's device. The CPU run cannot see a tensor placed explicitly on the CPU (device=DEVICE, .cpu(),
    device="cpu"): there it is where x is. One probe call per (notebook, seed, task), shared by its checks."""
    if runs.failure is not None:
        raise runs.failure
    sizes = [n for n in META_WORLDS if n in runs.worlds] or [max(runs.worlds)]
    worlds = [{"world": n, "cases": [{"args": c["args"], **({"fn": c["fn"]} if "fn" in c else {})}
                                     for c in runs.worlds[n]["cases"]]} for n in sizes]
    key = (id(student), int(seed), f"{task} on meta")
    if key not in _RUNS:
        while len(_RUNS) >= 12:
            _RUNS.pop(next(iter(_RUNS)))
        try:
            _RUNS[key] = student.call("run_fake_worlds", fn_name=fn_name, worlds=worlds, home="meta")
        except StudentFailure as exc:
            _RUNS[key] = exc
    res = _RUNS[key]
    if isinstance(res, StudentFailure):
        raise res
    expect(not res.get("timed_out"), f"{fn_name} with its arguments on the meta device (each rank played in turn "
                                     f"on torch's fake process group): the calls did not finish within the probe's "
                                     f"deadline")
    got = {w["world"]: w["ranks"] for w in res["worlds"]}
    for n in sizes:
        expect(n in got and len(got[n]) == n, f"{fn_name} on the meta device: the probe's reply holds no record per "
                                              f"rank for {n} ranks")
        for i, case in enumerate(runs.worlds[n]["cases"]):
            if prefix and not case["name"].startswith(prefix):
                continue
            for rank in range(n):
                f = got[n][rank][i] if i < len(got[n][rank]) else None
                what = (f"{case['what']} on rank {rank} of {n}, with {made_from} on the meta device (the grader's "
                        f"stand-in for cuda:{rank}, which the CPU run cannot give {made_from}; each rank played on "
                        f"torch's fake process group, no data moved)")
                expect(f is not None, f"{what}: no record (the call did not return, or the process crashed)")
                err = f["error"]
                made = f.get("made_elsewhere") or []
                if err and (made or not err.get("needs_values")):
                    fail(f"{what}: raised {err['type']}: {err['message'][:200]}"
                         + (f"; before that, {made[0]}" if made else "")
                         + f". Make every tensor you create on {made_from}'s device (torch.empty_like({made_from}), "
                           f"{made_from}.new_empty(...) or device={made_from}.device), not on the notebook's DEVICE "
                           f"or the CPU")
                bad = f.get("elsewhere") or []
                expect(not bad, f"{what}: {bad[0] if bad else ''}, not on {made_from}'s device (meta); with NCCL "
                                f"{made_from} is on cuda:{rank} and this fails. Make every tensor you create on "
                                f"{made_from}'s device (torch.empty_like({made_from}), {made_from}.new_empty(...) or "
                                f"device={made_from}.device), not on the notebook's DEVICE or the CPU")


def returned_tensor(frame: dict, what: str) -> torch.Tensor:
    res = frame["result"]
    if res["kind"] != "tensor":
        fail(f"{what}: expected a tensor to be returned, got {res.get('type', 'None')}")
    return res["tensor"]


def same(got: torch.Tensor, want: torch.Tensor, what: str) -> None:
    """Exact agreement in shape, dtype and values (for data that is only moved, never added)."""
    expect(tuple(got.shape) == tuple(want.shape), f"{what}: expected shape {tuple(want.shape)}, "
                                                  f"got {tuple(got.shape)}")
    expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype}, got {got.dtype}")
    if not torch.equal(got, want):
        bad = (got != want).reshape(-1).nonzero()
        i = int(bad[0]) if len(bad) else 0
        fail(f"{what}: {len(bad)} of {want.numel()} values differ; at flat index {i} expected "
             f"{want.reshape(-1)[i].item()!r}, got {got.reshape(-1)[i].item()!r}")


def same_bits(got: torch.Tensor, want: torch.Tensor, what: str) -> None:
    """Shape, dtype and every value bit for bit (a copied -0.0 stays -0.0, a NaN stays NaN)."""
    expect(tuple(got.shape) == tuple(want.shape), f"{what}: expected shape {tuple(want.shape)}, "
                                                  f"got {tuple(got.shape)}")
    expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype}, got {got.dtype}")
    if got.numel() == 0:
        return
    bits = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[want.element_size()]
    bad = got.contiguous().view(bits) != want.contiguous().view(bits)
    if bad.any():
        i = int(bad.reshape(-1).nonzero()[0])
        fail(f"{what}: {int(bad.sum())} of {want.numel()} values differ bit for bit; at flat index {i} expected "
             f"{want.reshape(-1)[i].item()!r}, got {got.reshape(-1)[i].item()!r}")


def close_values(got: torch.Tensor, want: torch.Tensor, what: str, rtol: float, atol: float,
                 equal_nan: bool = False) -> None:
    """Shape and values within tolerance (the dtype has its own check); NaN equals NaN where equal_nan."""
    expect(tuple(got.shape) == tuple(want.shape), f"{what}: expected shape {tuple(want.shape)}, "
                                                  f"got {tuple(got.shape)}")
    if not got.is_floating_point() and not want.is_floating_point():
        # integers exactly: through float64, sums past 2**53 that differ in their last bits would round alike
        bad = got.to(torch.int64) != want.to(torch.int64)
        if bad.any():
            i = int(bad.reshape(-1).nonzero()[0])
            fail(f"{what}: {int(bad.sum())} of {want.numel()} values differ; at flat index {i} expected "
                 f"{int(want.reshape(-1)[i])}, got {int(got.reshape(-1)[i])} (integers are summed exactly)")
        return
    g, w = got.to(torch.float64), want.to(torch.float64)
    bad = ~torch.isclose(g, w, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bad.any():
        i = int(bad.reshape(-1).nonzero()[0])
        fail(f"{what}: {int(bad.sum())} of {want.numel()} values differ beyond rtol={rtol:.2g}, atol={atol:.2g}; "
             f"at flat index {i} expected {w.reshape(-1)[i].item():.12g}, got {g.reshape(-1)[i].item():.12g}")


def tolerance(dtype: torch.dtype, n_terms: int, scale: float) -> dict:
    """Room for a different summation order of n_terms values of size ``scale``."""
    if not dtype.is_floating_point:
        return {"rtol": 0.0, "atol": 0.0}
    eps = torch.finfo(dtype).eps
    return {"rtol": 4 * n_terms * eps, "atol": 4 * n_terms * eps * scale}


def ceil_log2(n: int) -> int:
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def describe(t: torch.Tensor) -> str:
    return f"{str(t.dtype).replace('torch.', '')} {tuple(t.shape)}"


def need_gpus(n: int) -> None:
    """Skip (or, when grading, fail) a GPU check on a machine with fewer than n CUDA devices."""
    import os

    import pytest

    from course.judge.pytest_plugin import grading
    have = torch.cuda.device_count()
    if have >= n:
        return
    if grading() and os.environ.get("COURSE_ALLOW_CPU_GRADING", "") in ("", "0"):
        pytest.fail(f"this check needs {n} CUDA GPUs and {have} are visible: grade on a node with {n} GPUs "
                    f"(or set COURSE_ALLOW_CPU_GRADING=1 to skip GPU checks)", pytrace=False)
    pytest.skip(f"needs {n} CUDA GPUs ({have} on this machine)")
