"""Allocation traces for 15-07 and the script that produces their expected statistics.

The hidden suite checks a student's allocator model against the statistics in
``fixtures/allocator_traces.json``. That file is produced by this script:

    python tests/15-07/allocator_traces.py derive
        Expected statistics DERIVED from the allocator's source rules (allocator_reference.py,
        transcribed from c10/cuda/CUDACachingAllocator.cpp). No GPU needed. The file says
        "source": "derived". This is what ships today (no GPU was available when it was written).

    python tests/15-07/allocator_traces.py record [--out PATH]   (default fixtures/allocator_traces.recorded.json)
        RECORDED on a real GPU: every trace is replayed in a fresh Python process (so the allocator
        starts empty) with torch.empty(n, dtype=torch.uint8, device="cuda") per 'alloc', del per
        'free' and torch.cuda.empty_cache() per 'empty_cache'; after each op it reads
        torch.cuda.memory_stats(). Any PYTORCH_CUDA_ALLOC_CONF / PYTORCH_ALLOC_CONF is replaced by
        PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False so the default allocator rules apply.
        The file says "source": "recorded"
        with the torch version and GPU name, and the script reports any trace where the recording
        and the derived rules disagree. To adopt a recording, write it over the fixture
        (``--out tests/15-07/fixtures/allocator_traces.json``) and rerun the suite.

    python tests/15-07/allocator_traces.py replay < trace.json
        Replays one trace (a JSON list of ops) on CUDA and prints the statistics after each op as
        JSON (used by the GPU-marked checks, and by ``record``).

Every trace here is tie-insensitive: its statistics do not depend on which of two equal-size free
blocks the allocator picks (checked by ``derive``), so a replay on a GPU, where segment addresses are
whatever cudaMalloc returns, must agree with the derived values.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "allocator_traces.json"
KiB, MiB = 1024, 1024 * 1024


def _reference():
    spec = importlib.util.spec_from_file_location("alloc_ref_15_07", HERE / "allocator_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _training_step_trace(batch: int = 64, steps: int = 2) -> list:
    """The allocations of a small CIFAR-10 CNN (conv 3->32->64, linear 4096->10), float32, plain SGD:
    parameters once, then per step the input batch, forward activations, gradients, and frees."""
    f = 4
    ops = []
    params = {"w1": 32 * 3 * 9, "b1": 32, "w2": 64 * 32 * 9, "b2": 64, "w3": 10 * 64 * 8 * 8, "b3": 10}
    for k, n in params.items():
        ops.append(("alloc", k, n * f))
    for s in range(steps):
        acts = [("x", batch * 3 * 32 * 32), ("y", batch * 8),
                ("a1", batch * 32 * 32 * 32), ("r1", batch * 32 * 32 * 32), ("p1", batch * 32 * 16 * 16),
                ("a2", batch * 64 * 16 * 16), ("r2", batch * 64 * 16 * 16), ("p2", batch * 64 * 8 * 8),
                ("logits", batch * 10), ("loss", 1)]
        for k, n in acts:
            ops.append(("alloc", f"{k}@{s}", n * f))
        # backward: gradient buffers appear, activations die in reverse order
        ops.append(("alloc", f"g_logits@{s}", batch * 10 * f))
        for k, n in params.items():
            if s == 0:
                ops.append(("alloc", f"grad_{k}", n * f))
        for k, _ in reversed(acts[2:9]):
            ops.append(("free", f"{k}@{s}"))
        ops.append(("free", f"g_logits@{s}"))
        ops.append(("free", f"loss@{s}"))
        ops.append(("free", f"x@{s}"))
        ops.append(("free", f"y@{s}"))
    ops.append(("empty_cache",))
    return [list(o) for o in ops]


def traces() -> dict:
    """Named traces. 'empty_cache' appears only in the traces whose name starts with 'cache_'."""
    t = {
        "small_rounding": [["alloc", "a", 1], ["alloc", "b", 513], ["alloc", "c", 4096], ["free", "b"],
                           ["alloc", "d", 100], ["alloc", "e", 1000], ["free", "a"], ["free", "c"]],
        "small_pool_fills_2MiB_segments": [["alloc", f"t{i}", 256 * KiB] for i in range(9)]
        + [["alloc", "m1", 1 * MiB], ["alloc", "m2", 1 * MiB - 100], ["alloc", "m3", 1 * MiB]],
        "pool_boundary_1MiB": [["alloc", "s", 1 * MiB], ["alloc", "l", 1 * MiB + 1], ["alloc", "s2", 1 * MiB - 511],
                               ["alloc", "l2", 2 * MiB], ["free", "l"], ["free", "s"]],
        "mid_large_share_20MiB": [["alloc", "a", 3 * MiB // 2], ["alloc", "b", 3 * MiB], ["alloc", "c", 9 * MiB + 900 * KiB],
                                  ["alloc", "d", 8 * MiB], ["free", "b"], ["alloc", "e", 2 * MiB]],
        "big_rounding_and_no_split": [["alloc", "a", 10 * MiB], ["alloc", "b", 11 * MiB], ["alloc", "c", 13 * MiB + 1],
                                      ["alloc", "d", 12 * MiB + 512 * KiB], ["alloc", "e", 25 * MiB],
                                      ["alloc", "f", 1 * MiB + 100 * KiB]],
        "reuse_best_fit": [["alloc", "a", 30 * MiB], ["alloc", "b", 40 * MiB], ["free", "a"], ["free", "b"],
                           ["alloc", "c", 25 * MiB], ["alloc", "d", 4 * MiB + 600 * KiB], ["alloc", "e", 36 * MiB],
                           ["free", "c"], ["alloc", "f", 2 * MiB]],
        "coalescing_neighbours": [["alloc", "a", 2 * MiB], ["alloc", "b", 2 * MiB], ["alloc", "c", 2 * MiB],
                                  ["free", "a"], ["free", "b"], ["alloc", "d", 3 * MiB + 512 * KiB],
                                  ["free", "c"], ["free", "d"], ["alloc", "e", 19 * MiB]],
        "cache_partial_release": [["alloc", "a", 4 * KiB], ["alloc", "b", 8 * KiB], ["alloc", "x", 5 * MiB],
                                  ["free", "a"], ["empty_cache"], ["free", "x"], ["empty_cache"], ["free", "b"],
                                  ["empty_cache"], ["alloc", "c", 4 * KiB]],
        "cache_split_segment_kept": [["alloc", "A", 30 * MiB], ["free", "A"], ["alloc", "B", 3 * MiB], ["empty_cache"],
                                     ["alloc", "C", 12 * MiB], ["free", "B"], ["empty_cache"], ["free", "C"],
                                     ["empty_cache"]],
        "cache_zero_bytes": [["alloc", "z", 0], ["alloc", "a", 10], ["free", "z"], ["empty_cache"], ["free", "a"],
                             ["empty_cache"], ["alloc", "z2", 0], ["empty_cache"]],
        "cache_training_step_cifar10": _training_step_trace(),
    }
    return t


def derive(out: Path = FIXTURE) -> dict:
    ref = _reference()
    data = {"source": "derived",
            "note": "Expected statistics derived from the caching allocator's source rules "
                    "(tests/15-07/allocator_reference.py, after c10/cuda/CUDACachingAllocator.cpp: "
                    "kMinBlockSize 512, kSmallSize 1 MiB, kSmallBuffer 2 MiB, kLargeBuffer 20 MiB, "
                    "kMinLargeAlloc 10 MiB, kRoundLarge 2 MiB, default settings). Not recorded on a GPU: "
                    "run 'python tests/15-07/allocator_traces.py record' on one to record them.",
            "torch": None, "gpu": None, "traces": {}}
    for name, ops in traces().items():
        if not ref.tie_insensitive(ops):
            raise SystemExit(f"trace {name} depends on tie-breaking between equal free blocks; change it")
        data["traces"][name] = {"ops": ops, "expected": ref.simulate(ops)}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    return data


# ------------------------------------------------------------------------------ GPU side

_REPLAY = r"""
import json, sys, torch
ops = json.load(sys.stdin)
torch.cuda.init()
keys = {"allocated": "allocated_bytes.all.current", "reserved": "reserved_bytes.all.current",
        "small_segments": "segment.small_pool.current", "large_segments": "segment.large_pool.current"}
def stats():
    s = torch.cuda.memory_stats()
    return {k: int(s.get(v, 0)) for k, v in keys.items()}
base = stats()
live, out = {}, []
for op in ops:
    if op[0] == "alloc":
        live[op[1]] = torch.empty(int(op[2]), dtype=torch.uint8, device="cuda")
    elif op[0] == "free":
        del live[op[1]]
    elif op[0] == "empty_cache":
        torch.cuda.empty_cache()
    now = stats()
    out.append({k: now[k] - base[k] for k in keys})
json.dump({"stats": out, "torch": torch.__version__, "gpu": torch.cuda.get_device_name(),
           "baseline": base}, sys.stdout)
"""


def clean_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING")}
    env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:False"  # pin the default, whatever a future one is
    return env


def replay_on_gpu(ops, timeout: float = 120) -> dict:
    """Replay one trace in a fresh process on CUDA; returns {"stats": [...], "torch", "gpu", "baseline"}."""
    r = subprocess.run([sys.executable, "-c", _REPLAY], input=json.dumps(ops), capture_output=True, text=True,
                       timeout=timeout, env=clean_env())
    if r.returncode != 0:
        raise RuntimeError(f"replay failed: {r.stderr.strip()[-500:]}")
    return json.loads(r.stdout)


def record(out: Path = FIXTURE) -> dict:
    ref = _reference()
    data = {"source": "recorded", "note": "Recorded with torch.cuda.memory_stats() by "
            "'python tests/15-07/allocator_traces.py record'.", "traces": {}}
    disagree = []
    for name, ops in traces().items():
        rec = replay_on_gpu(ops)
        data["torch"], data["gpu"] = rec["torch"], rec["gpu"]
        data["traces"][name] = {"ops": ops, "expected": rec["stats"]}
        if rec["stats"] != ref.simulate(ops):
            disagree.append(name)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"recorded {len(data['traces'])} traces on {data['gpu']} (torch {data['torch']}) -> {out}")
    print("traces where the recording differs from the derived rules:", disagree or "none")
    return data


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("derive", "record", "replay"):
        print(__doc__)
        return 2
    default = FIXTURE if argv[0] == "derive" else FIXTURE.with_name("allocator_traces.recorded.json")
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else default
    if argv[0] == "derive":
        d = derive(out)
        print(f"derived {len(d['traces'])} traces -> {out}")
    elif argv[0] == "record":
        record(out)
    else:
        json.dump(replay_on_gpu(json.load(sys.stdin)), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
