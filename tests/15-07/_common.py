"""Shared judge-side helpers for the 15-07 suite (never sent to the student's process)."""
from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

from course.judge.expect import expect, fail

HERE = Path(__file__).resolve().parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"_15_07_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ref = _load("allocator_reference")
traces_mod = _load("allocator_traces")
standin = _load("cuda_standin")


def standin_source() -> str:
    """The CUDA stand-in's source, sent to the probes of the CPU variants of the GPU-marked checks."""
    return (HERE / "cuda_standin.py").read_text()


def replay_with_standin(ops) -> dict:
    """The GPU replay script (allocator_traces._REPLAY), run in this process against the CUDA stand-in
    driven by the judge's allocator model: the CPU variant of the GPU-marked replay checks."""
    import contextlib
    import io
    import sys
    backend = standin.ModelBackend(ref.RefAllocator(), ref.snapshot_of)
    stdin, stdout = io.StringIO(json.dumps([list(o) for o in ops])), io.StringIO()
    old_stdin = sys.stdin
    try:
        sys.stdin = stdin
        with standin.install(backend), contextlib.redirect_stdout(stdout):
            exec(compile(traces_mod._REPLAY, "<replay script>", "exec"), {"__name__": "__replay__"})
    finally:
        sys.stdin = old_stdin
    out = json.loads(stdout.getvalue())
    out["log"] = backend.log
    return out
KiB, MiB = ref.KiB, ref.MiB


def fixture() -> dict:
    return json.loads((HERE / "fixtures" / "allocator_traces.json").read_text())


def fmt_bytes(n) -> str:
    if not isinstance(n, (int, float)) or isinstance(n, bool):
        return repr(n)
    if n and n % MiB == 0:
        return f"{n} ({n // MiB} MiB)"
    if n >= MiB:
        return f"{n} ({n / MiB:.3f} MiB)"
    return str(n)


def fmt_op(op) -> str:
    return "(" + ", ".join(repr(x) for x in op) + ("," if len(op) == 1 else "") + ")"


def fmt_trace(ops, upto: int, max_ops: int = 14) -> str:
    shown = ops[: upto + 1]
    if len(shown) <= max_ops:
        return "[" + ", ".join(fmt_op(o) for o in shown) + "]"
    return "[..., " + ", ".join(fmt_op(o) for o in shown[-max_ops:]) + f"]  (op #{upto} of {len(ops)})"


def fmt_stats(d) -> str:
    if not isinstance(d, dict):
        return repr(d)
    return ", ".join(f"{k}={fmt_bytes(d.get(k, '<missing>')) if k in ('allocated', 'reserved') else d.get(k, '<missing>')}"
                     for k in ref.STAT_KEYS)


def compare_trace(student, ops, expected, label: str, keys=ref.STAT_KEYS) -> None:
    """Run the student's simulate on ops; fail at the first op whose statistics differ."""
    res = student.call("simulate", trace=[list(o) for o in ops])
    if "error" in res:
        fail(f"simulate(trace) for {label}: {res['error']}")
    rows = res["rows"]
    expect(len(rows) == len(ops), f"simulate(trace) for {label}: expected one statistics dict per op "
                                  f"({len(ops)} ops), got {len(rows)}")
    for i, (got, want) in enumerate(zip(rows, expected)):
        if not isinstance(got, dict):
            fail(f"simulate(trace) for {label}: entry {i} should be a dict with keys {list(ref.STAT_KEYS)}, got {got}")
        missing = [k for k in keys if k not in got]
        if missing:
            fail(f"simulate(trace) for {label}: entry {i} lacks key(s) {missing} (it has {sorted(got)})")
        bad = [k for k in keys if not (isinstance(got[k], (int, float)) and not isinstance(got[k], bool)
                                        and got[k] == want[k])]
        if bad:
            fail(f"simulate(trace) for {label}: after op #{i} {fmt_op(ops[i])} expected "
                 f"{fmt_stats(want)}; got {fmt_stats(got)} (wrong: {', '.join(bad)}).\n"
                 f"  trace so far: {fmt_trace(ops, i)}")


SIZE_BANDS = [(1, 4 * KiB), (4 * KiB, 1 * MiB + 1), (1 * MiB - 2048, 1 * MiB + 2048), (1 * MiB, 10 * MiB),
              (10 * MiB - 4096, 10 * MiB + 4096), (10 * MiB, 40 * MiB)]


def random_size(rng: random.Random) -> int:
    lo, hi = SIZE_BANDS[rng.randrange(len(SIZE_BANDS))]
    return rng.randrange(lo, hi)


def random_trace(rng: random.Random, n_ops: int, p_cache: float = 0.0, p_zero: float = 0.03) -> list:
    ops, live, k = [], [], 0
    for _ in range(n_ops):
        r = rng.random()
        if r < p_cache:
            ops.append(("empty_cache",))
        elif live and r < p_cache + 0.42:
            name = live.pop(rng.randrange(len(live)))
            ops.append(("free", name))
        else:
            # names are any objects: falsy ones too, and 0 and '0' are two names (not one, as str(name) makes them)
            name = ("", 0, "0")[k] if k < 3 else f"t{k}"
            k += 1
            n = 0 if rng.random() < p_zero else random_size(rng)
            ops.append(("alloc", name, n))
            live.append(name)
    return ops


def tail(gen, n: int = 4, p_cache: float = 0.0) -> list:
    """A few random operations on fresh tensors, drawn from the check's generator: appended to a fixed
    trace, they make its last statistics differ from student to student (its first ones are unchanged)."""
    import torch
    rng = random.Random(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    ops = [(op[0], f"tail_{op[1]!r}", *op[2:]) if len(op) > 1 else op for op in random_trace(rng, n, p_cache, 0.0)]
    return ops + [("alloc", "tail_last", random_size(rng))]


def compare_with_tail(student, ops, expected, gen, label: str, p_cache: float = 0.0) -> None:
    """compare_trace on ops plus a random tail: the first rows against ``expected``, the tail's rows
    against the judge's model."""
    full = list(ops) + tail(gen, p_cache=p_cache)
    compare_trace(student, full, list(expected) + ref.simulate(full)[len(ops):],
                  f"{label}, then {len(full) - len(ops)} random operations")


def tie_free_random_trace(seed: int, n_ops: int, p_cache: float = 0.0) -> list:
    """A random trace whose statistics do not depend on tie-breaking between equal free blocks."""
    for attempt in range(50):
        ops = random_trace(random.Random(seed * 7919 + attempt), n_ops, p_cache)
        if ref.tie_insensitive(ops):
            return ops
    return ops[: n_ops // 2] if ref.tie_insensitive(ops[: n_ops // 2]) else [("alloc", "a", 1)]
