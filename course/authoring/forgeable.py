"""How many points a forger that knows the task earns: measured through the real grading pipeline.

    python -m course.authoring.forgeable [ID ...] [--forgers N] [--write] [--keep DIR]   (make forgeable [ID=15-01])

For each assignment:
1. record: the hidden suite runs against the reference solution under one seed (the recording
   seed), and the judge keeps every reply the worker sent, per probe, in call order;
2. forge: a notebook whose solution cells are the reference's (so the visible checks in the
   kernel pass) plus one cell that, inside the grader's worker, puts the blank release's solution
   cells back and replaces the worker's reply loop (``course.judge.worker.Worker.call``) with a replay
   of those recorded replies. It runs no solution code for any hidden check: it answers what the
   reference answered for another student's inputs;
3. grade: that notebook goes through ``course.grading.class_run.pipeline.run`` (nbgrader autograde in the
   sandbox, on a scratch course) as N students ``forger-1`` ... (3 by default), whose grading seeds
   differ from the recording seed and from each other;
4. report the forged points out of the total (the mean over the forgers: a check whose inputs are
   drawn from a small set passes for some students by chance), and which checks passed.

What it measures: the share of the points whose right answer does not depend on the values the
judge draws for each student (a constant, "raised X", "returns None", a fixed input's value, a
relation between two replies of one run, an answer fixed by which case a check names). Those are
the points a student can earn without a solution, by copying another student's replies or by a
table of answers per case. The replay answers each call with the next recorded reply whose inputs
look alike: the same values; else the same shapes, dtypes, strings and flags (a lookup by the fixed
part of the inputs, such as the name of the function a check asks about); else the same structure;
else the next in order. So a check that stops early does not shift the replies of later ones, and
replies go back exactly as recorded.

What it does not measure: a forger that computes its answers from the numbers it receives is a
correct solution, not a forger, and is not modelled, even where the computation is cheap (an answer
that is a drawn size, or a count). GPU checks are measured only on a machine with CUDA: without one
they are skipped in both runs (COURSE_ALLOW_CPU_GRADING=1), and the points are those of a CPU run.
"""
from __future__ import annotations

import argparse
import base64
import io
import os
import re
import shutil
import sys
import tempfile
import time
import zlib
from pathlib import Path

import pytest

from .. import fstree
from .. import REPO_ROOT, TESTS_DIR

RECORD = TESTS_DIR / "forgeable.md"
LIMIT = 10.0  # per cent of an assignment's points, at most
FORGER = "forger"  # the forgers are students forger-1, forger-2, ...

# Shared by the judge (recording) and the forger cell (replaying): how alike two calls' inputs are
# (level 0: every value, tensors by their bytes; 1: shapes, dtypes, strings, flags; 2: structure), and
# which recorded reply answers a call.
FINGERPRINT = r'''
def _forge_fp(v, level):
    import hashlib, torch
    if isinstance(v, torch.Tensor):
        if level == 2:
            return ("T", str(v.dtype))
        head = ("T", tuple(v.shape), str(v.dtype))
        if level == 1:
            return head
        try:
            raw = v.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes()
        except Exception:
            raw = repr(v).encode()
        return head + (hashlib.sha1(raw).hexdigest(),)
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, float, complex)):
        return repr(v) if level == 0 else type(v).__name__
    if isinstance(v, (list, tuple)):
        items = [_forge_fp(x, level) for x in v]
        return (type(v).__name__, tuple(sorted(set(map(repr, items))) if level == 2 else items))
    if isinstance(v, dict):
        return ("D", tuple(sorted((repr(k), repr(_forge_fp(x, level))) for k, x in v.items())))
    return (type(v).__name__, repr(v) if level < 2 else "")


def _forge_keys(kwargs):
    import hashlib
    return tuple(hashlib.sha1(repr(_forge_fp(kwargs, lv)).encode()).hexdigest()[:16] for lv in (0, 1, 2))


def _forge_pick(entries, at, keys):
    """(entry, next position) for a call whose inputs have these keys: the first entry from position `at` on
    alike at level 0, else 1, else 2 (calls a stopped check never made are skipped); past the end, the
    latest alike entry; else the next in order."""
    for level in range(3):
        for i in range(at, len(entries)):
            if entries[i]["keys"][level] == keys[level]:
                return entries[i], i + 1
    for level in (1, 2):
        for i in range(min(at, len(entries)) - 1, -1, -1):
            if entries[i]["keys"][level] == keys[level]:
                return entries[i], at
    if not entries:
        raise LookupError("the reference never answered this probe")
    return entries[min(at, len(entries) - 1)], at + 1
'''

# The forger's cell. In the kernel it does nothing (the reference cells answer the visible checks);
# in the worker it undoes the solution and answers every probe call from the table.
REPLAY = r'''
import sys as _forge_sys
_forge_w = _forge_sys.modules.get("course.judge.worker")
if _forge_w is not None and hasattr(_forge_w, "Worker"):
    import base64 as _b64, builtins as _bi, io as _io, zlib as _zlib
    import torch as _forge_torch
    for _forge_src in _FORGE_BLANK:  # the release's solution cells: no solution code is left
        try:
            exec(_forge_src, globals())
        except BaseException:
            pass
    _FORGE_TABLE = _forge_torch.load(_io.BytesIO(_zlib.decompress(_b64.b64decode(_FORGE_DATA))), weights_only=False)
    _FORGE_AT = {}
__FINGERPRINT__
    def _forge_raise(err):
        base = getattr(_bi, err["type"], None)
        base = base if isinstance(base, type) and issubclass(base, Exception) else Exception
        msg = err["message"]
        raise type(err["type"], (base,), {"__str__": lambda self: msg})()

    def _forge_call(self, module, probe, kwargs):
        key = f"{module}:{probe}"
        e, _FORGE_AT[key] = _forge_pick(_FORGE_TABLE.get(key, []), _FORGE_AT.get(key, 0), _forge_keys(kwargs))
        if not e["ok"]:
            _forge_raise(e["value"])
        return e["value"]

    _forge_w.Worker.call = _forge_call
'''


def replay_lib() -> dict:
    """The forger's matching functions (_forge_keys, _forge_pick), as the worker runs them."""
    ns: dict = {}
    exec(FINGERPRINT, ns)
    return ns


# ------------------------------------------------------------------ recording (a pytest plugin)
def pytest_configure(config):
    """Loaded into the judge with PYTEST_PLUGINS=course.authoring.forgeable while recording: keep every reply."""
    out = os.environ.get("COURSE_FORGE_RECORD")
    if not out:
        return
    import torch

    from ..judge.adapter import ProcessStudent, StudentError, StudentFailure
    keys, calls, real = replay_lib()["_forge_keys"], [], ProcessStudent.call

    def call(self, probe, /, *, module=None, timeout=None, **kwargs):
        bio = io.BytesIO()
        torch.save(kwargs, bio)  # the inputs as the worker would receive them
        bio.seek(0)
        seen = torch.load(bio, weights_only=False)
        entry = {"module": module or next(iter(self.probe_sources)), "probe": probe, "keys": keys(seen)}
        try:
            value = real(self, probe, module=module, timeout=timeout, **kwargs)
        except StudentError as exc:
            calls.append({**entry, "ok": False, "value": dict(exc.err)})
            raise
        except StudentFailure as exc:
            calls.append({**entry, "ok": False, "value": {"type": type(exc).__name__, "message": str(exc)}})
            raise
        calls.append({**entry, "ok": True, "value": value})
        return value

    ProcessStudent.call = call
    config.stash[_RECORDING] = (out, calls)


_RECORDING = pytest.StashKey()  # (file, probe replies in call order)


def pytest_unconfigure(config):
    rec = config.stash.get(_RECORDING, None)
    if rec:
        import torch
        torch.save(rec[1], rec[0])


def record(assignment: str, seed: int, tmp: Path) -> tuple[list, "Results"]:
    """Every probe reply of the reference under ``seed`` (in call order), and the suite's results."""
    import nbformat
    import torch

    from ..judge.suite import run_suite
    from ..grading.class_run import submissions
    ref = tmp / "reference.ipynb"
    nbformat.write(submissions.reference(assignment), ref)
    out = tmp / "replies.pt"
    env = {"PYTEST_PLUGINS": "course.authoring.forgeable", "COURSE_FORGE_RECORD": str(out)}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        res = run_suite(assignment, ref, seed=seed, timeout=1800)
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    if res.error or not out.exists():
        raise RuntimeError(f"{assignment}: recording the reference failed: {res.error or 'no replies written'}")
    return torch.load(out, weights_only=False), res


def forger_notebook(assignment: str, calls: list):
    """The reference notebook plus the replay cell (see the module's docstring)."""
    import nbformat
    import torch

    from .. import notebook as nbtools
    from ..grading.class_run import submissions
    table: dict = {}
    for c in calls:
        table.setdefault(f"{c['module']}:{c['probe']}", []).append({"keys": c["keys"], "ok": c["ok"],
                                                                    "value": c["value"]})
    bio = io.BytesIO()
    torch.save(table, bio)
    data = base64.b64encode(zlib.compress(bio.getvalue(), 9)).decode()
    blank = [c.source for c in nbtools.read(submissions.release_notebook(assignment)).cells
             if nbtools.nbgrader_meta(c).get("solution") and c.cell_type == "code"]
    body = REPLAY.replace("__FINGERPRINT__", "\n".join("    " + ln for ln in FINGERPRINT.strip().splitlines()))
    cell = f"_FORGE_BLANK = {blank!r}\n_FORGE_DATA = {data!r}\n{body}"
    nb = submissions.reference(assignment)
    nb.cells.append(nbformat.v4.new_code_cell(cell))
    return nb, len(data)


# ------------------------------------------------------------------ grading the forger
_LINE = re.compile(r"^\s*(PASS|FAIL|SKIP)\s\s(.*?)\s\s\(([\d.]+)/([\d.]+)\)\s*$")
_SEED = re.compile(r"\[seed (\d+)\]")


def grade(assignment: str, nb, students: list[str], keep: Path | None) -> dict:
    """Autograde ``nb`` as each of ``students`` on a scratch course: {student: score, total, checks, seeds}."""
    import contextlib

    import nbformat
    from nbgrader.api import Gradebook

    from .. import notebook as nbtools
    from ..grading.class_run import pipeline, submissions
    root = Path(tempfile.mkdtemp(prefix=f"forgeable-{assignment}-"))
    try:
        shutil.copy(REPO_ROOT / "nbgrader_config.py", root)  # safe: a repository file into a fresh temporary root
        shutil.copytree(REPO_ROOT / "source" / assignment, root / "source" / assignment,  # safe: repository files
                        ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
        name = submissions.release_notebook(assignment).name
        for student in students:
            dest = root / "gradebook" / "submitted" / student / assignment
            dest.mkdir(parents=True)
            nbformat.write(nb, dest / name)
        log = io.StringIO()
        with contextlib.redirect_stdout(log):
            rc = pipeline.run(root, [assignment], examples=False)
        if rc:
            raise RuntimeError(f"{assignment}: the pipeline reported failures:\n{log.getvalue()}")
        out = {}
        for student in students:
            with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
                sub = gb.find_submission(assignment, student)
                score, total = float(sub.score), float(sub.max_score)
            graded = nbtools.read(nbtools.first_in(root / "autograded" / student / assignment))
            checks, seeds = [], set()
            for c in graded.cells:
                if not nbtools.is_test_cell(c):
                    continue
                text = "".join(o.get("text", "") for o in c.get("outputs", []) if o.get("output_type") == "stream")
                seeds |= {int(s) for s in _SEED.findall(text)}
                for ln in text.splitlines():
                    m = _LINE.match(ln)
                    if m:
                        checks.append({"status": m[1], "title": m[2], "points": float(m[4]), "earned": float(m[3])})
            out[student] = {"score": score, "total": total, "checks": checks, "seeds": seeds}
        return out
    finally:
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copytree(root, keep / assignment, dirs_exist_ok=True)  # safe: this tool's own temporary root; no sandbox mounts it
        fstree.remove(str(root))


def measure(assignment: str, forgers: int = 3, keep: Path | None = None) -> dict:
    from ..grading.autograde.preprocessors import grading_seed
    t0 = time.monotonic()
    students = [f"{FORGER}-{i}" for i in range(1, forgers + 1)]
    seeds = {s: grading_seed(assignment, s) for s in students}
    rec_seed = grading_seed(assignment, "forgeable-recording")
    while rec_seed in seeds.values():
        rec_seed = (rec_seed + 1) % 2**31
    if len(set(seeds.values())) < len(students):
        raise RuntimeError(f"{assignment}: two forgers share a grading seed ({seeds})")
    with tempfile.TemporaryDirectory() as tmp:
        calls, res = record(assignment, rec_seed, Path(tmp))
    bad = [c.name for c in res.checks if c.failed]
    if bad:
        raise RuntimeError(f"{assignment}: the reference fails {bad} under the recording seed {rec_seed}")
    nb, size = forger_notebook(assignment, calls)
    per = grade(assignment, nb, students, keep)
    for s, out in per.items():
        if out["seeds"] - {seeds[s]}:
            raise RuntimeError(f"{assignment}: {s} was graded under seeds {sorted(out['seeds'])}, expected {seeds[s]}")
    passed: dict = {}  # title -> (points earned by each forger that passed it)
    for out in per.values():
        for c in out["checks"]:
            if c["status"] == "PASS":
                passed.setdefault(c["title"], []).append(c["earned"])
    return {"assignment": assignment, "score": sum(o["score"] for o in per.values()) / len(per),
            "total": next(iter(per.values()))["total"], "shares": [share(o) for o in per.values()],
            "passed": passed, "forgers": len(per), "seeds": seeds, "recording_seed": rec_seed,
            "calls": len(calls), "replay_bytes": size, "seconds": time.monotonic() - t0}


def share(m: dict) -> float:
    """Per cent of the points earned (for a measure: the mean over its forgers)."""
    return 100.0 * m["score"] / m["total"] if m["total"] else 0.0


# ------------------------------------------------------------------ the committed record
def write_record(results: list[dict]) -> None:
    """Update tests/forgeable.md: one row per assignment, plus the checks the forger passed."""
    rows = read_record()
    for m in results:
        passed = [f"{t} ({len(e)}/{m['forgers']}, {max(e):.2f})" for t, e in m["passed"].items()]
        rows[m["assignment"]] = {"forged": f"{m['score']:.2f}", "total": f"{m['total']:g}",
                                 "share": f"{share(m):.1f}", "passed": "; ".join(passed) or "-"}
    lines = ["# Forgeable share per assignment", "",
             "Written by `python -m course.authoring.forgeable --write` (`make forgeable WRITE=1`): the points a forger that",
             "replays the reference's replies for other students' inputs earns through the real pipeline, the mean",
             "over its forgers (see the docstring of `course/authoring/forgeable.py`). CI (`tests/test_forgeable.py`) checks",
             f"every share is at most {LIMIT:g} % (the exceptions, each with its reason, are listed there) and that "
             "docs/security.md", "quotes these figures.", "",
             "| id | forged | total | share % | checks passed by the replay (forgers that passed it, points) |",
             "|---|---|---|---|---|"]
    for a in sorted(rows):
        r = rows[a]
        lines.append(f"| {a} | {r['forged']} | {r['total']} | {r['share']} | {r['passed'].replace('|', '/')} |")
    RECORD.write_text("\n".join(lines) + "\n")


def read_record(path: Path = RECORD) -> dict:
    rows = {}
    if path.exists():
        for ln in path.read_text().splitlines():
            cells = [c.strip() for c in ln.strip().strip("|").split("|")]
            if len(cells) == 5 and re.fullmatch(r"\d\d-\d\d", cells[0]):
                rows[cells[0]] = dict(zip(("forged", "total", "share", "passed"), cells[1:]))
    return rows


def main(argv=None) -> int:
    from .. import assignments
    ap = argparse.ArgumentParser(prog="python -m course.authoring.forgeable")
    ap.add_argument("assignment", nargs="*", help="assignments to measure (default: all)")
    ap.add_argument("--write", action="store_true", help=f"record the results in {RECORD.relative_to(REPO_ROOT)}")
    ap.add_argument("--forgers", type=int, default=3, help="students graded with the forger notebook (default 3)")
    ap.add_argument("--keep", type=Path, help="keep each scratch course (gradebook, autograded forger) here")
    args = ap.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")
        print("no CUDA here: GPU checks are skipped in both runs (COURSE_ALLOW_CPU_GRADING=1)")
    results, over = [], []
    for a in args.assignment or assignments():
        m = measure(a, args.forgers, args.keep)
        results.append(m)
        print(f"{a}: forged {m['score']:.2f} / {m['total']:g} points = {share(m):.1f} % (mean of "
              f"{', '.join(f'{x:.1f}' for x in m['shares'])})  ({m['calls']} replies replayed, recorded under seed "
              f"{m['recording_seed']}, graded under seeds {', '.join(map(str, m['seeds'].values()))}, "
              f"{m['seconds']:.0f} s)")
        for title, earned in m["passed"].items():
            print(f"    PASS {len(earned)}/{m['forgers']}  {max(earned):.2f}  {title}")
        if share(m) > LIMIT:
            over.append(a)
        sys.stdout.flush()
    if args.write:
        write_record(results)
        print(f"wrote {RECORD.relative_to(REPO_ROOT)}")
    if over:
        print(f"over {LIMIT:g} %: {', '.join(over)}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
