"""Grading benchmark (``make bench``) and per-submission profile (``--profile``).

    python -m course.authoring.bench [--assignment A ...] [--per-topic K] [--workers 1,2] [--keep]
    python -m course.authoring.bench --profile [--assignment A ...]

The benchmark builds a synthetic class from the example submissions in a temporary course root:
per topic, the reference, the blank release, ``partly_wrong``, ``unusual_correct`` when present,
then known-wrong specs of ``tests/submissions/<topic>/`` until there are K (default 6: 60 over the
ten topics). It grades that class with the pipeline's autograde (``course.grading.class_run.batch``) once per
worker count, each in a course root of its own, and prints one table:

- per topic, the median seconds per submission (the progress markers' ``seconds``: one
  ``nbgrader autograde`` each, as batch.py times it) with each worker count, and the reference's;
- the cold-kernel floor: the reference notebook executed by the course's ``SafeExecute`` alone
  (sandboxed kernel, nbgrader_config.py's settings, ``NBGRADER_EXECUTION=autograde`` so the
  hidden-test cells only print a line): no hidden checks, no nbgrader command around it;
- plain nbgrader with the checks in the kernel: the source notebook executed by nbgrader's own
  ``Execute`` in an ordinary, unsandboxed ``python3`` kernel, so each hidden-test cell's
  ``run_hidden`` runs the task's hidden checks in-process (``course.judge.inprocess``);
- the class's autograde wall time per worker count and the speed-up, the first submission of each
  batch against the median of the rest of its topic, and the peak memory of each worker's process
  tree (its nbgrader runner, judge server and sessions, kernels and sandboxed workers), sampled
  from /proc every 0.5 s (RSS summed over the tree, and PSS, which counts shared pages once).

``--profile`` grades one reference submission per topic (after one warm-up submission that starts
the judge server) in one process, with timing wrappers around the grading steps and
``course.authoring.bench_timing`` in the judge session, and prints where the time goes. The
wrappers only take timestamps; the grading itself is unchanged.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .. import REPO_ROOT, SOURCE_DIR, TESTS_DIR, assignments, tool_env
from .. import notebook as nbtools

GIB = 1 << 30


# ----------------------------------------------------------------------------- the class

def class_specs(assignment: str, per_topic: int) -> list[tuple[str, Path | None]]:
    """(kind, spec path) for the topic's submissions: reference, blank release, partly_wrong,
    unusual_correct (when present), then known-wrong specs in name order, ``per_topic`` in all."""
    from ..grading.class_run import submissions
    specs = {p.stem: p for p in submissions.specs(assignment)}
    chosen: list[tuple[str, Path | None]] = [("reference", None), ("release", None)]
    for name in ("partly_wrong", "unusual_correct"):
        if name in specs:
            chosen.append((name, specs[name]))
    chosen += [(n, p) for n, p in sorted(specs.items())
               if n not in ("partly_wrong",) and not n.startswith("unusual_correct")]
    return chosen[:per_topic]


def student_id(assignment: str, index: int, kind: str) -> str:
    return f"{assignment}_{index}_{kind}"[:60]


def build_root(root: Path, ids: list[str], per_topic: int) -> dict[str, list[str]]:
    """A course root with the source notebooks and the class in gradebook/submitted/; students per topic."""
    import nbformat

    from ..grading.class_run import submissions
    root.mkdir(parents=True)
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)  # safe: a fresh temporary root of ours
    students: dict[str, list[str]] = {}
    for a in ids:
        shutil.copytree(SOURCE_DIR / a, root / "source" / a,  # safe: the repository's own source/, into a fresh root
                        ignore=shutil.ignore_patterns("*.nb.py"))
        name = submissions.release_notebook(a).name
        for i, (kind, spec) in enumerate(class_specs(a, per_topic), 1):
            s = student_id(a, i, kind)
            dest = root / "gradebook" / "submitted" / s / a / name
            dest.parent.mkdir(parents=True)
            if kind == "reference":
                nbformat.write(submissions.reference(a), dest)
            elif kind == "release":
                nbformat.write(nbtools.read(submissions.release_notebook(a)), dest)
            else:
                submissions.write(spec, dest, a)
            students.setdefault(a, []).append(s)
    return students


def _pipeline(root: Path, ids: list[str], steps: str, workers: int = 1) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "course.grading.pipeline", "--root", str(root), "--no-examples",
           "--steps", steps, "--workers", str(workers), "--no-progress"]
    for a in ids:
        cmd += ["--assignment", a]
    return subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, env=tool_env())


# ----------------------------------------------------------------------------- memory

def _status_kib(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


TEMPLATE_MARK = "course.sandbox.template import main"  # the command line of a sandbox template (and its forks)


def sandbox_path(runs: list[dict]) -> str:
    """Which way this run's sandboxes were made, as seen in the worker trees (not only as configured)."""
    from ..sandbox import template
    trees = [m for r in runs for m in r["memory"]]
    seen = sum(m.get("template", False) for m in trees)
    if seen:
        return (f"sandboxes: forked from a template (torch imported once per worker) in {seen} of {len(trees)} "
                f"worker tree(s) sampled; COURSE_SANDBOX_TEMPLATE=0: bubblewrap for each")
    why = template.usable() or ("COURSE_SANDBOX_TEMPLATE is off" if not template.wanted() else
                                "no template seen in any worker tree: see the runner's log")
    return f"sandboxes: bubblewrap for each kernel and judge worker ({why})"


class TreeSampler:
    """Every ``period`` s: each nbgrader runner started by this process (one per batch worker) and
    its descendants; the peak of their summed RSS and PSS, and the largest VmHWM of one member."""

    def __init__(self, period: float = 0.5):
        self.period = period
        self.peaks: dict[int, dict] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        from ..sandbox.procs import descendants, scan
        me = os.getpid()
        while not self._stop.wait(self.period):
            children, _ = scan()
            for r in children.get(me, []):
                if "course.grading.class_run.runner" not in _cmdline(r):
                    continue
                tree = [r, *descendants(r, children)]
                rss = sum(_status_kib(p, "VmRSS") for p in tree)
                pss = sum(_pss_kib(p) for p in tree)
                hwm = max(_status_kib(p, "VmHWM") for p in tree)
                peak = self.peaks.setdefault(r, {"rss": 0, "pss": 0, "hwm": 0, "procs": 0, "template": False})
                peak["template"] = peak["template"] or any(TEMPLATE_MARK in _cmdline(p) for p in tree)
                peak["rss"], peak["pss"] = max(peak["rss"], rss), max(peak["pss"], pss)
                peak["hwm"], peak["procs"] = max(peak["hwm"], hwm), max(peak["procs"], len(tree))


# ----------------------------------------------------------------------------- the class, graded

def grade_class(root: Path, ids: list[str], workers: int) -> dict:
    """Autograde the class in ``root`` on ``workers``: wall seconds, seconds per submission (from the
    progress markers), the order graded, failures, and the sampled memory peaks."""
    from ..grading.class_run import batch, pipeline
    out = io.StringIO()
    with TreeSampler() as sampler, contextlib.redirect_stdout(out):
        t0 = time.monotonic()
        code = pipeline.run(root, ids, False, steps=("autograde",), workers=workers, progress=False)
        wall = time.monotonic() - t0
    seconds = {}
    for a in ids:
        for s in batch.submitted_students(root, a):
            marker = root / "gradebook" / "progress" / a / f"{s}.json"
            if marker.exists():
                seconds[(a, s)] = json.loads(marker.read_text())["seconds"]
    order = [(a, s) for a in ids for s in batch.submitted_students(root, a)]
    return {"workers": workers, "wall": wall, "code": code, "seconds": seconds, "order": order,
            "memory": list(sampler.peaks.values()), "log": out.getvalue()}


# ----------------------------------------------------------------------------- floor and plain

def _floor_main(root: str, jobs: list[list[str]]) -> None:
    """(in a process of its own) SafeExecute alone on each (assignment, notebook), nbgrader_config.py's settings."""
    import nbformat
    from traitlets.config.loader import PyFileConfigLoader

    os.environ["NBGRADER_EXECUTION"] = "autograde"
    config = PyFileConfigLoader("nbgrader_config.py", path=root).load_config()
    from ..grading.autograde.preprocessors import SafeExecute
    out = {}
    for a, path in jobs:
        nb = nbformat.read(path, as_version=4)
        ep = SafeExecute(config=config)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.monotonic()
            nb, _ = ep.preprocess(nb, {"nbgrader": {"assignment": a, "student": "floor"}, "metadata": {"path": tmp}})
            dt = time.monotonic() - t0
        out[a] = {"seconds": dt, "errors": _errors(nb)}
    print(json.dumps(out))


def _plain_main(jobs: list[list[str]]) -> None:
    """(in a process of its own) nbgrader's Execute, unsandboxed python3 kernel, on each source notebook."""
    import nbformat
    from nbgrader.preprocessors import Execute

    os.environ.pop("NBGRADER_EXECUTION", None)
    os.environ.pop("NBGRADER_VALIDATING", None)
    # the same workload as under grading: fast mode (no demos), no downloads, no display
    os.environ.update(COURSE_FAST="1", COURSE_NO_DOWNLOAD="1", MPLBACKEND="Agg")
    out = {}
    for a, folder in jobs:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) / a
            shutil.copytree(folder, work,  # safe: folder is the repository's source/<id> (plain_nbgrader)
                            ignore=shutil.ignore_patterns("*.nb.py"))
            path = nbtools.first_in(work)
            nb = nbformat.read(path, as_version=4)
            ep = Execute(timeout=600, kernel_name="python3")
            t0 = time.monotonic()
            nb, _ = ep.preprocess(nb, {"metadata": {"path": str(work)}})
            dt = time.monotonic() - t0
        out[a] = {"seconds": dt, "errors": _errors(nb)}
    print(json.dumps(out))


def _errors(nb) -> int:
    return sum(1 for c in nb.cells if c.cell_type == "code"
               for o in c.get("outputs", []) if o.get("output_type") == "error")


def _helper(kind: str, payload: dict) -> dict:
    env = tool_env()
    r = subprocess.run([sys.executable, "-m", "course.authoring.bench", f"--_{kind}", json.dumps(payload)],
                       cwd=REPO_ROOT, capture_output=True, text=True, env=env)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode or not lines:
        raise RuntimeError(f"bench {kind} failed (exit {r.returncode}): {(r.stderr or r.stdout)[-2000:]}")
    return json.loads(lines[-1])


def cold_floor(root: Path, ids: list[str]) -> dict:
    from ..grading.class_run import submissions
    import nbformat
    jobs = []
    for a in ids:
        path = root / "bench-floor" / f"{a}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(submissions.reference(a), path)
        jobs.append([a, str(path)])
    return _helper("floor", {"root": str(root), "jobs": jobs})


def plain_nbgrader(ids: list[str]) -> dict:
    return _helper("plain", {"jobs": [[a, str(SOURCE_DIR / a)] for a in ids]})


# ----------------------------------------------------------------------------- the table

def machine() -> dict:
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    gpu = "none"
    try:
        import torch
        if torch.cuda.is_available():
            gpu = ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
    except Exception:
        pass
    return {"cores": len(os.sched_getaffinity(0)), "memory_gib": mem / GIB, "gpu": gpu, "load": os.getloadavg()}


def _med(xs) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _f(x, fmt="{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def table(ids, students, runs, floor, plain, before, after) -> str:
    ws = [r["workers"] for r in runs]
    head = (["topic", "subs"] + [f"median s/sub, {w} worker{'s' * (w > 1)}" for w in ws]
            + ["reference, 1 worker", "cold-kernel floor", "plain nbgrader + checks in kernel"])
    rows = []
    for a in ids:
        meds = [_med(r["seconds"].get((a, s)) for s in students[a]) for r in runs]
        ref = next((runs[0]["seconds"].get((a, s)) for s in students[a] if s.endswith("_reference")), None)
        rows.append([a, str(len(students[a]))] + [_f(m) for m in meds]
                    + [_f(ref), _f(floor.get(a, {}).get("seconds")), _f(plain.get(a, {}).get("seconds"))])
    total = sum(len(v) for v in students.values())
    rows.append(["all", str(total)] + [_f(_med(r["seconds"].values())) for r in runs]
                + [_f(_med(runs[0]["seconds"].get((a, s)) for a in ids for s in students[a] if s.endswith("_reference"))),
                   _f(_med(v["seconds"] for v in floor.values())), _f(_med(v["seconds"] for v in plain.values()))])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    line = lambda cells: "| " + " | ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows), ""]
    for r in runs:
        done = len(r["seconds"])
        out.append(f"class autograde, {r['workers']} worker(s): {r['wall']:.0f} s wall for {done} submissions "
                   f"({r['wall'] / max(done, 1):.2f} s each){'' if r['code'] == 0 else '  [some failed: see the log]'}")
    if len(runs) > 1:
        base = runs[0]
        for r in runs[1:]:
            out.append(f"speed-up, {r['workers']} workers over {base['workers']}: {base['wall'] / r['wall']:.2f}x")
    for r in runs:
        if not r["order"]:
            continue
        a, s = r["order"][0]
        first = r["seconds"].get((a, s))
        rest = _med(r["seconds"].get((a, t)) for t in students[a] if t != s)
        twin = [v for (b, t), v in r["seconds"].items() if b == a and t != s and t.split("_", 2)[-1] == s.split("_", 2)[-1]]
        out.append(f"first submission, {r['workers']} worker(s): {s} {_f(first)} s; median of the rest of {a}: "
                   f"{_f(rest)} s" + (f" (same kind: {_f(_med(twin))} s)" if twin else ""))
    for r in runs:
        mem = sorted(r["memory"], key=lambda m: -m["pss"])
        if mem:
            parts = [f"RSS {m['rss'] / 2**20:.2f} / PSS {m['pss'] / 2**20:.2f} GiB, largest process "
                     f"{m['hwm'] / 2**20:.2f} GiB, up to {m['procs']} processes" for m in mem]
            out.append(f"peak memory per worker tree, {r['workers']} worker(s): " + "; ".join(parts))
    errs = {a: (floor.get(a, {}).get("errors"), plain.get(a, {}).get("errors")) for a in ids}
    errs = {a: e for a, e in errs.items() if any(e)}
    if errs:
        out.append("cells that raised (floor, plain): " + ", ".join(f"{a} {e}" for a, e in errs.items()))
    out.append(sandbox_path(runs) + "; the cold-kernel floor: a fresh kernel under bubblewrap, without the template")
    out.append(f"load average (1, 5, 15 min): before {' '.join(f'{x:.2f}' for x in before)}, "
               f"after {' '.join(f'{x:.2f}' for x in after)}")
    caption = ("Seconds per submission: one `nbgrader autograde --student` in the batch (progress markers), "
               "sandboxed kernel and hidden checks in a sandboxed worker. Cold-kernel floor: the reference "
               "executed by SafeExecute alone (sandboxed kernel, no checks, no nbgrader command). Plain nbgrader: "
               "the source notebook run by nbgrader's Execute in an unsandboxed python3 kernel, hidden checks "
               "in-process through run_hidden (no sandbox, no separate worker; GPU checks skipped).")
    return caption + "\n\n" + "\n".join(out)


# ----------------------------------------------------------------------------- profile

def _profile_main(root: str, items: list[list[str]], times: str) -> None:
    """(in a process of its own) autograde + generate_feedback per (assignment, student), timed."""
    from ..judge import server as judgeserver
    from ..grading.autograde import spare_kernel
    from ..grading.autograde.preprocessors import hidden_checks
    from ..grading.autograde.preprocessors.execute import SafeExecute

    spare_kernel.use_in_this_process()  # as in the nbgrader runner: the next kernel is started ahead
    from ..grading.class_run import runner

    events: list[dict] = []

    def emit(name, t0, t1):
        events.append({"phase": name, "start": t0, "end": t1})

    def wrap(owner, method, name):
        original = getattr(owner, method)
        if asyncio_iscoroutine(original):
            async def w(*a, **k):
                t0 = time.time()
                try:
                    return await original(*a, **k)
                finally:
                    emit(name, t0, time.time())
        else:
            def w(*a, **k):
                t0 = time.time()
                try:
                    return original(*a, **k)
                finally:
                    emit(name, t0, time.time())
        setattr(owner, method, w)

    wrap(SafeExecute, "preprocess", "kernel: execute (start to stop)")
    wrap(SafeExecute, "start_new_kernel_client", "kernel: start")
    wrap(SafeExecute, "async_start_new_kernel_client", "kernel: start")
    wrap(SafeExecute, "async_execute_cell", "kernel: cell")
    wrap(SafeExecute, "execute_cell", "kernel: cell")  # nbconvert's sync path (run_sync of the base class)
    wrap(SafeExecute, "_cleanup_kernel", "kernel: stop")
    wrap(hidden_checks, "_judge", "judge: total")
    wrap(judgeserver.JudgeServer, "run", "judge: session (fork to exit)")
    wrap(hidden_checks.JudgeHiddenChecks, "preprocess", "verdicts: wait and write")
    env = tool_env()
    env.update(COURSE_BENCH_TIMES=times, PYTEST_PLUGINS="course.authoring.bench_timing")
    log = os.path.join(root, "gradebook", "logs", "profile.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    results = []
    for a, s in items:
        events.clear()
        Path(times).write_text("")
        t0 = time.time()
        code = runner._run_one({"args": ["autograde", a, f"--student={s}", "--force", f"--CourseDirectory.root={root}"],
                                "cwd": root, "env": env, "log": log})
        t1 = time.time()
        fb = runner._run_one({"args": ["generate_feedback", a, f"--student={s}", "--force",
                                       f"--CourseDirectory.root={root}"], "cwd": root, "env": env, "log": log})
        t2 = time.time()
        session = [json.loads(ln) for ln in Path(times).read_text().splitlines() if ln.strip()]
        results.append({"assignment": a, "student": s, "code": code, "feedback_code": fb, "start": t0,
                        "autograde_end": t1, "feedback_end": t2, "events": list(events) + session})
    print(json.dumps(results))


def asyncio_iscoroutine(f) -> bool:
    import inspect
    return inspect.iscoroutinefunction(f)


def _span(events, name):
    """Seconds covered by the phase's intervals (nested or repeated ones counted once), first start, last end."""
    ev = sorted((e["start"], e["end"]) for e in events if e["phase"] == name)
    total, cur = 0.0, None
    for a, b in ev:
        if cur and a <= cur[1]:
            cur[1] = max(cur[1], b)
            continue
        if cur:
            total += cur[1] - cur[0]
        cur = [a, b]
    if cur:
        total += cur[1] - cur[0]
    return total, (ev[0][0] if ev else None, max((b for _, b in ev), default=None))


PROFILE_COLUMNS = ["topic", "autograde", "setup", "kernel start", "cells", "kernel stop", "judge fork+collect",
                   "worker start", "code load", "checks", "judge exit", "judge other", "judge total", "wait for judge",
                   "verdicts+save", "feedback"]


def profile_rows(results: list[dict]) -> list[list[str]]:
    """One row per profiled submission: seconds of each phase (see PROFILE_COLUMNS and docs/performance.md, "Grading speed")."""
    rows = []
    for r in results:
        ev = r["events"]
        t0, end = r["start"], r["autograde_end"]
        _, (ex0, _) = _span(ev, "kernel: execute (start to stop)")
        kstart, _ = _span(ev, "kernel: start")
        cells, _ = _span(ev, "kernel: cell")
        kstop, _ = _span(ev, "kernel: stop")
        judge, (j0, j1) = _span(ev, "judge: total")
        _, (s0, s1) = _span(ev, "judge: session (fork to exit)")
        _, (_, c1) = _span(ev, "judge: session start to collected")
        start_all, (w0, _) = _span(ev, "worker: start, probes and code load")
        _, (_, p1) = _span(ev, "worker: probes loaded")
        load, _ = _span(ev, "worker: student code load")
        checks, _ = _span(ev, "judge: check")
        # the worker starts inside the first check that calls it (or in a fixture, outside every check)
        inside = sum(max(0.0, min(c["end"], w["end"]) - max(c["start"], w["start"]))
                     for c in ev if c["phase"] == "judge: check"
                     for w in ev if w["phase"] == "worker: start, probes and code load")
        _, (f0, _) = _span(ev, "judge: session finish (workers closed, results written)")
        _, (v0, _) = _span(ev, "verdicts: wait and write")
        sub = lambda a, b: (a - b) if a is not None and b is not None else 0.0
        wait = max(0.0, sub(j1, v0))
        first = min((x for x in (ex0, j0) if x is not None), default=end)
        rows.append([r["assignment"]] + [f"{x:.2f}" for x in (
            end - t0, first - t0, kstart, cells, kstop, sub(c1, s0), sub(p1, w0), load, checks - inside,
            sub(s1, f0), judge - sub(c1, s0) - sub(p1, w0) - load - (checks - inside) - sub(s1, f0), judge, wait, sub(end, v0) - wait, r["feedback_end"] - end)])
    return rows


def _md(head, rows) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    line = lambda cells: "| " + " | ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    return "\n".join([line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)])


def run_profile(ids: list[str], keep: bool) -> int:
    before = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="course-bench-profile-"))
    try:
        root = tmp / "course"
        students = build_root(root, ids, 1)  # the reference of each topic
        warm = student_id(ids[0], 0, "warmup")
        from ..grading.class_run import submissions
        import nbformat
        dest = root / "gradebook" / "submitted" / warm / ids[0] / submissions.release_notebook(ids[0]).name
        dest.parent.mkdir(parents=True)
        nbformat.write(submissions.reference(ids[0]), dest)
        r = _pipeline(root, ids, "generate")
        if r.returncode:
            print(r.stdout[-3000:], r.stderr[-3000:])
            return 1
        items = [[ids[0], warm]] + [[a, students[a][0]] for a in ids]
        env = tool_env()
        proc = subprocess.run([sys.executable, "-m", "course.authoring.bench", "--_profile",
                               json.dumps({"root": str(root), "items": items, "times": str(tmp / "times.jsonl")})],
                              cwd=REPO_ROOT, capture_output=True, text=True, env=env)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("[")]
        if proc.returncode or not lines:
            print(proc.stdout[-3000:], proc.stderr[-3000:])
            return 1
        results = json.loads(lines[-1])
        (tmp / "profile.json").write_text(json.dumps(results, indent=1))  # every timestamp (--keep keeps it)
        m = machine()
        print(f"machine: {m['cores']} cores, {m['memory_gib']:.0f} GiB, GPU: {m['gpu']}; load before "
              f"{' '.join(f'{x:.2f}' for x in before)}, after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("Seconds per phase of one reference submission per topic (the first row, a warm-up, also "
              "starts the nbgrader process's judge server). The judge starts once the kernel has exited: "
              "autograde ~ setup + kernel + judge + verdicts.")
        rows = profile_rows(results)
        rows[0][0] += " (warm-up)"
        print(_md(PROFILE_COLUMNS, rows))
        bad = [f"{r['assignment']}/{r['student']}" for r in results if r["code"] or r["feedback_code"]]
        if bad:
            print("commands that failed: " + ", ".join(bad) + f" (log: {root / 'gradebook' / 'logs' / 'profile.log'})")
        return 0
    finally:
        if keep:
            print(f"kept: {tmp}")
        else:
            from .. import fstree
            fstree.remove(str(tmp))


# ----------------------------------------------------------------------------- main

def run_bench(ids: list[str], per_topic: int, workers: list[int], keep: bool) -> int:
    import torch  # noqa: F401  (imported before any timing: the pipeline checks for GPUs)
    if not torch.cuda.is_available():
        os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")
    m = machine()
    before = m["load"]
    print(f"machine: {m['cores']} cores, {m['memory_gib']:.0f} GiB memory, GPU: {m['gpu']}; "
          f"load average before: {' '.join(f'{x:.2f}' for x in before)}", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="course-bench-"))
    try:
        runs = []
        students = {}
        for w in workers:
            root = tmp / f"w{w}"
            students = build_root(root, ids, per_topic)
            r = _pipeline(root, ids, "generate")
            if r.returncode:
                print(r.stdout[-3000:], r.stderr[-3000:])
                return 1
            print(f"grading {sum(map(len, students.values()))} submissions on {w} worker(s) ...", flush=True)
            runs.append(grade_class(root, ids, w))
            if runs[-1]["code"]:
                print(runs[-1]["log"][-2000:])
        print("cold-kernel floor and plain nbgrader ...", flush=True)
        floor = cold_floor(tmp / f"w{workers[0]}", ids)
        plain = plain_nbgrader(ids)
        after = os.getloadavg()
        print()
        print(f"Grading benchmark: {sum(map(len, students.values()))} submissions over {len(ids)} topic(s), "
              f"{m['cores']} cores, {m['memory_gib']:.0f} GiB, GPU: {m['gpu']}"
              + ("" if m["gpu"] != "none" else " (COURSE_ALLOW_CPU_GRADING=1: GPU checks skipped)")
              + f"; {'quiet' if max(before[0], after[0]) < m['cores'] else 'LOADED'} machine")
        print(table(ids, students, runs, floor, plain, before, after))
        return 0 if all(r["code"] == 0 for r in runs) else 1
    finally:
        if keep:
            print(f"kept: {tmp}")
        else:
            from .. import fstree
            fstree.remove(str(tmp))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.bench")
    ap.add_argument("--assignment", action="append", help="only these topics (default: all)")
    ap.add_argument("--per-topic", type=int, default=6, help="submissions per topic (default 6)")
    ap.add_argument("--workers", default="1,2", help="worker counts to compare (default 1,2)")
    ap.add_argument("--profile", action="store_true", help="profile one submission per topic, phase by phase")
    ap.add_argument("--keep", action="store_true", help="keep the temporary course roots")
    for internal in ("_floor", "_plain", "_profile"):
        ap.add_argument(f"--{internal}", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._floor:
        p = json.loads(args._floor)
        _floor_main(p["root"], p["jobs"])
        return 0
    if args._plain:
        _plain_main(json.loads(args._plain)["jobs"])
        return 0
    if args._profile:
        p = json.loads(args._profile)
        _profile_main(p["root"], p["items"], p["times"])
        return 0
    ids = args.assignment or assignments()
    unknown = [a for a in ids if not (SOURCE_DIR / a).is_dir() or not (TESTS_DIR / a).is_dir()]
    if unknown:
        ap.error(f"unknown topic(s): {unknown}")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    if args.profile:
        return run_profile(ids, args.keep)
    workers = [int(w) for w in args.workers.split(",") if w.strip()]
    if args.per_topic < 1 or not workers or min(workers) < 1:
        ap.error("--per-topic and --workers must be at least 1")
    return run_bench(ids, args.per_topic, workers, args.keep)


if __name__ == "__main__":
    raise SystemExit(main())
