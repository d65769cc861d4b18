"""`make test-gpu`: every GPU-marked hidden check, run on a GPU machine against each topic's reference
(expected: pass) and against the example submissions whose ``EXPECT_GPU`` says what a GPU must give
them (the mistakes only a GPU can show); one table: check, expected, result, seconds. docs/gpu.md.

    python -m course.authoring.gpu_check [--topic ID] [--seed N] [--jobs N] [--standin]
    python -m course.authoring.gpu_check --notebook PATH --assignment ID   # a submission: in the sandbox only
    python -m course.authoring.gpu_check --download-wheels                 # here, before a GPU run: .whl/

It runs under whichever Python starts it (on a lent GPU machine, that machine's own PyTorch). The
pure-Python packages a judge needs and such a machine lacks (nbformat and IPython, with theirs) are
installed from .whl/ when missing. Where the sandbox cannot start (no bubblewrap under gVisor) it says so
and judges the course's own notebooks (references, example submissions) without it; a submission, never.
``--standin`` (a machine without CUDA): each GPU check that has a CPU twin on the CUDA stand-in runs as
that twin, so that the whole path can be tried here; the others are reported as not run.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .. import REPO_ROOT, SOURCE_DIR, TESTS_DIR

SPECS_DIR = TESTS_DIR / "submissions"
WHEEL_DIR = REPO_ROOT / ".whl" / "gpu-check"  # ignored (.gitignore: .whl/); carried to the machine
BUDGET_S = 300  # each topic's judge run; the topics run side by side: the whole run ends inside 8 minutes

# What a judge imports that a lent GPU machine lacks (its image: /work/.library/device/KINDS.md), as
# distributions; pure Python but rpds-py, whose wheel is built for the machine's Python 3.12.
WHEELS = ("nbformat", "fastjsonschema", "jsonschema", "jsonschema-specifications", "referencing", "rpds-py",
          "jupyter-core", "platformdirs", "traitlets", "ipython", "ipython-pygments-lexers", "jedi", "parso",
          "matplotlib-inline", "pexpect", "ptyprocess", "prompt-toolkit", "wcwidth", "stack-data", "asttokens",
          "executing", "pure-eval")
NEEDED_MODULES = ("nbformat", "IPython", "pytest", "pytest_timeout", "hypothesis", "torch")
GPU_PYTHON = "3.12"
GPU_PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_17_x86_64",
                 "manylinux2014_x86_64", "manylinux1_x86_64")

# GPU check (topic/file::function) -> its CPU twin in the same file, run on the CUDA stand-in (--standin).
STANDIN_TWINS = {
    "15-07/test_timing.py::test_gpu_timing_synchronizes": "test_cuda_timing_on_standin",
    "15-07/test_allocator_model.py::test_replay_on_gpu": "test_replay_on_cuda_standin",
    "15-07/test_empty_cache.py::test_replay_on_gpu": "test_replay_on_cuda_standin",
    "15-07/test_oom_diagnosis.py::test_summary_of_live_snapshot": "test_summary_of_standin_snapshot",
    "16-01/test_triton.py::test_cuda_kernel_on_gpu": "test_cuda_kernel_in_the_interpreter",
}


class Refused(RuntimeError):
    """A run this script will not make (a submission judged without the sandbox)."""


@dataclass(frozen=True)
class GpuCheck:
    topic: str
    file: str            # the test file's name in tests/<topic>/
    func: str            # the test function (parametrized items share it)
    task: str | None

    @property
    def key(self) -> str:
        return f"{self.topic}/{self.file}::{self.func}"

    @property
    def twin(self) -> str | None:
        return STANDIN_TWINS.get(self.key)


@dataclass(frozen=True)
class Case:
    """One notebook judged on GPU checks: a topic's reference, an example spec, or a submission."""
    topic: str
    name: str
    origin: str          # "reference" | "example" | "submission"
    source: Path         # the reference notebook, the example's spec, or the submission's notebook
    expect: dict         # task -> "pass" | "fail" | "zero", over that task's GPU checks


@dataclass
class Row:
    check: str
    expected: str
    result: str
    seconds: float
    ok: bool | None      # None: did not run (skipped, or no stand-in): neither as expected nor not
    detail: str = ""     # the failure messages, printed under the table when ok is False


# ------------------------------------------------------------------------------------------ discovery

def _marks(decorators) -> list[ast.Call | ast.Attribute]:
    return [d for d in decorators if "mark." in ast.unparse(d)]


def _task_of(nodes) -> str | None:
    for n in nodes:
        if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("mark.task") and n.args \
                and isinstance(n.args[0], ast.Constant):
            return n.args[0].value
    return None


def _is_gpu(node) -> bool:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node).endswith("mark.gpu")


def discover(tests_dir: Path = TESTS_DIR, topics=()) -> list[GpuCheck]:
    """Every ``@pytest.mark.gpu`` check of every topic's hidden suite (read, not imported)."""
    found = []
    for probes in sorted(tests_dir.glob("*/probes.py")):
        topic = probes.parent.name
        if topics and topic not in topics:
            continue
        for f in sorted(probes.parent.glob("test_*.py")):
            tree = ast.parse(f.read_text(), str(f))
            module_marks = []
            for n in tree.body:
                if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets):
                    module_marks = n.value.elts if isinstance(n.value, (ast.List, ast.Tuple)) else [n.value]
            for n in tree.body:
                if isinstance(n, ast.FunctionDef) and n.name.startswith("test_") and \
                        any(_is_gpu(d) for d in _marks(n.decorator_list)):
                    found.append(GpuCheck(topic, f.name, n.name, _task_of(n.decorator_list) or _task_of(module_marks)))
    return found


def cases(topic: str, checks: list[GpuCheck], specs_dir: Path = SPECS_DIR) -> list[Case]:
    """The topic's reference (every task with a GPU check: pass) and its examples with ``EXPECT_GPU``."""
    import runpy
    tasks = sorted({c.task for c in checks if c.topic == topic})
    from .. import notebook as nbtools
    out = [Case(topic, "reference", "reference", nbtools.first_in(SOURCE_DIR / topic), {t: "pass" for t in tasks})]
    for p in sorted((specs_dir / topic).glob("*.py")) if (specs_dir / topic).is_dir() else []:
        if p.name.startswith("_") or "EXPECT_GPU" not in p.read_text():
            continue
        want = runpy.run_path(str(p)).get("EXPECT_GPU") or {}
        unknown = sorted(set(want) - set(tasks))
        if unknown:
            raise ValueError(f"{p}: EXPECT_GPU names {unknown}, which have no GPU-marked check in tests/{topic}/")
        out.append(Case(topic, p.stem, "example", p, dict(want)))
    return out


# ------------------------------------------------------------------------------------------ the guard

def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(path).resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def refuse_unsandboxed(judged: list[Case], sandboxed: bool) -> None:
    """Without the sandbox only the course's own code is judged: references from source/ and example
    specs from tests/submissions/. Anything else (a student's notebook) is refused, whatever its label."""
    if sandboxed:
        return
    for c in judged:
        own = (c.origin == "reference" and _inside(c.source, SOURCE_DIR)) or \
              (c.origin == "example" and _inside(c.source, SPECS_DIR))
        if not own:
            raise Refused(f"{c.source}: not the course's own code, and the sandbox cannot start here; a submission "
                          f"is never judged without it (grade it where bubblewrap runs)")


def sandbox_state() -> tuple[bool, str]:
    """(sandboxed, a line saying which): the sandbox when it starts, unless COURSE_SANDBOX=off."""
    from .. import sandbox
    if sandbox.mode() == "off":
        return False, "COURSE_SANDBOX=off: judging WITHOUT the sandbox (the course's own notebooks only)"
    reason = sandbox.probe()
    if reason is None:
        return True, "judging in the sandbox (bubblewrap)"
    return False, (f"the sandbox cannot start here ({reason}): judging WITHOUT it, the course's own notebooks only "
                   f"(references and example submissions); a submission would be refused")


# ------------------------------------------------------------------------------------------ judging

def _ids(nodeid: str) -> tuple[str, str]:
    """(file name, function) of a result's nodeid."""
    path, _, name = nodeid.partition("::")
    return Path(path).name, name.split("[")[0]


def _short(text: str, n: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 1] + "…"


def rows_for(case: Case, checks: list[GpuCheck], results, standin: bool) -> list[Row]:
    """The table's rows for one judged notebook: a row per check item for a reference, a row per task
    (its verdict over that task's GPU checks, as EXPECT's) for an example or a submission."""
    mine = [c for c in checks if c.topic == case.topic and c.task in case.expect]
    by_func = {(c.file, c.twin if standin else c.func): c for c in mine}
    got: dict[GpuCheck, list] = {c: [] for c in mine}
    for r in results:
        c = by_func.get(_ids(r.nodeid))
        if c is not None:
            got[c].append(r)
    from ..judge.pytest_plugin import check_key  # the item's name without its notebook and seed ids

    def label(c, r=None):
        params = check_key(r.name)[len(r.name.split("[")[0]):] if r else ""
        return (f"{case.topic} {case.name}: {c.file}::{c.func}{params}"
                + (f" (stand-in twin {c.twin})" if standin and c.twin else ""))
    rows = []
    if case.origin == "reference":
        for c in mine:
            if standin and not c.twin:
                rows.append(Row(label(c), "pass", "not run: no CUDA stand-in twin", 0.0, None))
            elif not got[c]:
                rows.append(Row(label(c), "pass", "NO RESULT: the check did not run", 0.0, False))
            for r in got[c]:
                ok = None if r.skipped else r.passed
                rows.append(Row(label(c, r), "pass", r.status if r.passed else f"{r.status}: {_short(r.message)}",
                                r.seconds, ok, "" if ok is not False else f"{r.name}: {r.message}"))
        return rows
    for task, want in sorted(case.expect.items()):
        cs = [c for c in mine if c.task == task]
        items = [r for c in cs for r in got[c]]
        ran = [r for r in items if not r.skipped]
        name = f"{case.topic} {case.name}: {task} GPU checks" + (" (stand-in)" if standin else "")
        secs = round(sum(r.seconds for r in items), 3)
        if standin and not any(c.twin for c in cs):
            rows.append(Row(name, want, "not run: no CUDA stand-in twin", 0.0, None))
            continue
        if not ran:
            why = _short(items[0].message) if items else "the checks did not run"
            rows.append(Row(name, want, f"skipped: {why}" if items else f"NO RESULT: {why}", secs,
                            None if items else False))
            continue
        failed = [r for r in ran if r.failed]
        ok = {"pass": not failed, "fail": bool(failed), "zero": len(failed) == len(ran)}[want]
        result = "pass" if not failed else f"fail: {len(failed)}/{len(ran)} failed ({_short(failed[0].message, 40)})"
        rows.append(Row(name, want, result, secs, ok,
                        "" if ok else "; ".join(f"{r.name}: {r.message or r.status}" for r in ran)))
    return rows


def judge_topic(topic: str, checks: list[GpuCheck], judged: list[Case], *, sandboxed: bool, seed: int | None,
                standin: bool, runner=None) -> list[Row]:
    """One judge run for all of a topic's cases (``runner``: course.judge.suite.run_suite, or a stand-in)."""
    refuse_unsandboxed(judged, sandboxed)  # again here: every path to the judge passes the guard
    if runner is None:
        from ..judge.suite import run_suite as runner
    from ..grading.class_run import submissions
    mine = [c for c in checks if c.topic == topic]
    if standin:
        twins = sorted({c.twin for c in mine if c.twin})
        if not twins:
            return [r for case in judged for r in rows_for(case, mine, [], standin)]
        select = ("-k", " or ".join(twins))
    else:
        select = ("-m", "gpu")
    with tempfile.TemporaryDirectory(prefix=f"gpu-check-{topic}-") as tmp:
        paths = []
        for case in judged:
            if case.origin == "example":
                nb = Path(tmp) / f"{case.name}.ipynb"
                submissions.write(case.source, nb)
            else:
                nb = case.source
            paths.append(str(nb))
        t0 = time.perf_counter()
        res = runner(topic, paths, sandbox="on" if sandboxed else "off", seed=seed, timeout=BUDGET_S,
                     notebook_tasks={p: sorted(c.expect) for p, c in zip(paths, judged)}, pytest_args=select)
        wall = time.perf_counter() - t0
    if res.error:
        return [Row(f"{topic}: judge run", "runs", f"ERROR: {_short(res.error, 70)}", round(wall, 1), False,
                    res.error)]
    rows = [r for case, p in zip(judged, paths) for r in rows_for(case, mine, res.for_notebook(p), standin)]
    rows.append(Row(f"{topic}: judge run (seed {res.seed}, all of the above)", "", "", round(wall, 1), None))
    return rows


# ------------------------------------------------------------------------------------------ output

def table(rows: list[Row]) -> str:
    head = ("check", "expected", "result", "seconds")
    cells = [head] + [(r.check, r.expected, ("" if r.ok is not False else "UNEXPECTED ") + r.result,
                       f"{r.seconds:.1f}") for r in rows]
    w = [max(len(c[i]) for c in cells) for i in range(3)]
    line = lambda c: f"| {c[0]:<{w[0]}} | {c[1]:<{w[1]}} | {c[2]:<{w[2]}} | {c[3]:>7} |"  # noqa: E731
    return "\n".join([line(cells[0]), f"|{'-' * (w[0] + 2)}|{'-' * (w[1] + 2)}|{'-' * (w[2] + 2)}|{'-' * 9}|"]
                     + [line(c) for c in cells[1:]])


def summary(rows: list[Row]) -> tuple[int, str]:
    """(exit code, closing lines): 1 when a row is not as expected, or when no check ran at all."""
    judged = [r for r in rows if r.expected]
    bad = [r for r in judged if r.ok is False]
    good = [r for r in judged if r.ok]
    idle = [r for r in judged if r.ok is None]
    lines = [f"{len(good)} as expected, {len(bad)} NOT as expected, {len(idle)} not run (skipped: not a pass)"]
    lines += [f"  UNEXPECTED {r.check}: {r.detail or r.result}" for r in bad]
    if not good and not bad:
        lines.append("no check ran: nothing was verified")
        return 1, "\n".join(lines)
    return (1 if bad else 0), "\n".join(lines)


# ------------------------------------------------------------------------------------------ set-up

def missing_modules(names=NEEDED_MODULES) -> list[str]:
    return [m for m in names if importlib.util.find_spec(m) is None]


def install_wheels(folder: Path = WHEEL_DIR) -> list[str]:
    """Install the wheels of ``folder`` whose distributions this Python lacks (nothing is upgraded)."""
    from importlib import metadata
    wheels = sorted(folder.glob("*.whl")) if folder.is_dir() else []
    todo = []
    for w in wheels:
        dist = w.name.split("-")[0]
        try:
            metadata.version(dist)
        except metadata.PackageNotFoundError:
            todo.append(w)
    if todo:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile",
                        "--no-cache-dir", "--disable-pip-version-check", *map(str, todo)], check=True)
        importlib.invalidate_caches()
    return [w.name for w in todo]


def download_wheels(folder: Path = WHEEL_DIR, python: str = GPU_PYTHON) -> int:
    """Here, with pip's index: the WHEELS at this environment's versions, for the GPU machine's Python."""
    from importlib import metadata
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.whl"):
        old.unlink()  # this folder is the script's own: an old version beside a new one would stop pip
    platforms = [a for p in GPU_PLATFORMS for a in ("--platform", p)]
    r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "--python-version", python, "--implementation", "cp", *platforms, "-d", str(folder),
                        *(f"{d}=={metadata.version(d)}" for d in WHEELS)])
    size = sum(w.stat().st_size for w in folder.glob("*.whl"))
    print(f"{len(list(folder.glob('*.whl')))} wheels in {folder} ({size / 2**20:.1f} MiB) for Python {python}")
    return r.returncode


def machine_line() -> str:
    import torch
    if not torch.cuda.is_available():
        return f"torch {torch.__version__}, no CUDA device visible"
    names = sorted({torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())})
    return (f"torch {torch.__version__} (CUDA {torch.version.cuda}), {torch.cuda.device_count()} GPU(s): "
            f"{', '.join(names)}; Python {sys.version.split()[0]} at {sys.executable}")


# ------------------------------------------------------------------------------------------ main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.gpu_check", description=__doc__.split("\n")[0])
    ap.add_argument("--topic", action="append", default=[], help="only this topic (repeat for several)")
    ap.add_argument("--seed", type=int, default=None, help="the judge's seed (default: fresh)")
    ap.add_argument("--jobs", type=int, default=None, help="topics judged side by side (default: cores/4, 1-4)")
    ap.add_argument("--standin", action="store_true",
                    help="no GPU here: run each GPU check's CPU twin on the CUDA stand-in instead")
    ap.add_argument("--notebook", type=Path, help="judge this submission's GPU checks (in the sandbox only)")
    ap.add_argument("--assignment", help="the topic of --notebook")
    ap.add_argument("--download-wheels", action="store_true", help="fill .whl/ for a GPU machine (needs pip's index)")
    ap.add_argument("--wheels", type=Path, default=WHEEL_DIR, help=f"the wheel folder (default {WHEEL_DIR})")
    ap.add_argument("--python-version", default=GPU_PYTHON, help="--download-wheels: for this Python")
    args = ap.parse_args(argv)
    if args.download_wheels:
        return download_wheels(args.wheels, args.python_version)
    t0 = time.perf_counter()
    installed = install_wheels(args.wheels) if missing_modules() else []
    if installed:
        print(f"installed {len(installed)} wheels from {args.wheels}: {', '.join(w.split('-')[0] for w in installed)}")
    missing = missing_modules()
    if missing:
        print(f"cannot judge: this Python lacks {', '.join(missing)}; run `make gpu-wheels` on a machine with "
              f"pip's index and bring .whl/ along (docs/gpu.md)")
        return 2
    print(machine_line())
    import torch
    if not args.standin and not torch.cuda.is_available():
        print("no CUDA GPU is visible: the GPU checks cannot run here (--standin runs their CPU twins instead)")
        return 2
    checks = discover(topics=args.topic or ([args.assignment] if args.notebook else ()))
    sandboxed, how = sandbox_state()
    print(how)
    try:
        if args.notebook:
            if not args.assignment:
                ap.error("--notebook needs --assignment")
            tasks = sorted({c.task for c in checks})
            plan = {args.assignment: [Case(args.assignment, args.notebook.name, "submission",
                                           args.notebook.resolve(), {t: "pass" for t in tasks})]}
        else:
            plan = {t: cases(t, checks) for t in sorted({c.topic for c in checks})}
        for judged in plan.values():
            refuse_unsandboxed(judged, sandboxed)
    except Refused as exc:
        print(f"REFUSED: {exc}")
        return 2
    jobs = args.jobs or max(1, min(4, (os.cpu_count() or 1) // 4))
    print(f"{len(checks)} GPU-marked checks in {len(plan)} topics; {sum(map(len, plan.values()))} notebooks; "
          f"{jobs} topic(s) at a time")
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(judge_topic, t, checks, judged, sandboxed=sandboxed, seed=args.seed,
                               standin=args.standin) for t, judged in plan.items()]
        rows = [r for f in futures for r in f.result()]
    print(table(rows))
    code, lines = summary(rows)
    print(lines)
    print(f"total {time.perf_counter() - t0:.0f} s")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
