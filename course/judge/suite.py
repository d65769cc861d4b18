"""Re-check one notebook from the command line (a grader re-checking a submission).

    python -m course.judge.suite path/to/notebook.ipynb [--assignment 15-01] [--seed N] [--sandbox on|off|auto]

Runs the assignment's hidden suite against that notebook's code (in the
sandbox by default) and prints one line per check and a score per task.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import SOURCE_DIR, TESTS_DIR
from . import server as judgeserver
from .results import Results


def guess_assignment(nb: Path) -> str | None:
    for parent in nb.resolve().parents:
        if (TESTS_DIR / parent.name / "probes.py").exists():
            return parent.name
    for src in SOURCE_DIR.glob("*/*.ipynb"):
        if src.name == nb.name:
            return src.parent.name
    return None


# The installed pytest plugins a session loads: hypothesis's (its checks' settings and seeds) and pytest-timeout's
# (pytest.ini's `timeout`). Every other one (anyio, xdist, platformdirs) is left out: finding and importing the
# whole venv's entry points cost about 0.3 s of CPU a session, per submission graded (issue 40).
AUTOLOADED = ("-p", "_hypothesis_pytestplugin", "-p", "pytest_timeout")


# pytest's exit codes for a session that broke (an internal error, a usage error): whatever results it wrote are
# not a verdict (a plugin's hook that pytest refused ended collection with no check run, and every notebook
# read "no check ran")
BROKEN_SESSION = (3, 4)
# pytest's exit status when a test file fails to import ("Interrupted: 1 error during collection"): the checks
# it holds would silently be missing from every notebook's results
COLLECTION_ERROR = 2


def session_env(assignment: str | None = None) -> dict:
    """The environment a judge session for ``assignment`` runs with (its workers' zygote imports ahead
    what that assignment's notebook imports: ``forkserver.preload_for``)."""
    from .forkserver import PRELOAD_ENV, preload_for
    return {**os.environ, "COURSE_JUDGE": "1", "PYTHONPATH": str(TESTS_DIR.parent),
            PRELOAD_ENV: os.environ.get(PRELOAD_ENV) or preload_for(assignment)}  # set by hand: a benchmark's A/B


def run_suite(assignment: str, notebook, *, sandbox: str = "on", seed: int | None = None,
              timeout: float = 900, tasks: list[str] = (), notebook_tasks: dict | None = None,
              notebook_seeds: dict | None = None, first_failure: dict | None = None,
              first_checks: dict | None = None, use_server: bool = False, pytest_args: tuple = ()) -> Results:
    """Run tests/<assignment> against ``notebook`` (a path, or a list of paths judged in one run)
    in a fresh judge process; return its results (course.judge.results). ``notebook_tasks`` maps a notebook path
    to the only tasks checked for it; ``notebook_seeds`` maps one to a number of seeds to judge it
    under (the run's seed and others derived from it), or to (number, [tasks]). ``use_server``:
    fork the session from a judge that has already imported torch and pytest (course.judge.server),
    as autograde does. ``first_failure`` maps a notebook to tasks whose remaining checks are skipped,
    per seed, once one has failed; ``first_checks`` maps one to checks (pytest_plugin.check_order_key) run before
    its others, the ones that caught it before, so that the skipping starts sooner. ``pytest_args``: more of pytest's options (``-m gpu``: only those checks)."""
    notebooks = [notebook] if isinstance(notebook, (str, Path)) else list(notebook)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.json"
        # no:logging: its capture walks every logger (torch's ~60 non-propagating ones among them) three times a
        # check, about a fifth of a session's CPU; no hidden check reads log records (issue 40)
        cmd = [sys.executable, "-m", "pytest", str(TESTS_DIR / assignment), "-q", "--assert=plain", "--color=no",
               "-p", "no:cacheprovider", "-p", "no:logging", *[f"--notebook={nb}" for nb in notebooks], f"--sandbox={sandbox}",
               f"--results-json={out}", "-o", "addopts=--import-mode=importlib", "-W", "ignore::DeprecationWarning",
               *AUTOLOADED]
        if seed is not None:
            cmd.append(f"--seed={seed}")
        cmd += list(pytest_args)
        for t in tasks:
            cmd.append(f"--task={t}")
        for nb, ts in (notebook_tasks or {}).items():
            cmd.append(f"--notebook-tasks={nb}={','.join(ts)}")
        for nb, ts in (first_failure or {}).items():
            cmd.append(f"--notebook-first-failure={nb}={','.join(ts)}")
        if first_checks:
            (Path(tmp) / "first_checks.json").write_text(json.dumps({str(k): list(v) for k, v in first_checks.items()}))
            cmd.append(f"--notebook-first-checks={Path(tmp) / 'first_checks.json'}")
        for nb, n in (notebook_seeds or {}).items():  # n, or (n, [task, ...])
            n, ts = n if isinstance(n, tuple) else (n, ())
            cmd.append(f"--notebook-seeds={nb}={int(n)}" + (f"@{','.join(ts)}" if ts else ""))
        env = {**session_env(assignment), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # only AUTOLOADED's plugins
        if len(notebooks) > 1:  # its workers fork from a zygote of its own: a spare started ahead would go unused
            env["COURSE_SPARE_ZYGOTE"] = "0"
        server = judgeserver.shared() if use_server else None
        if server is not None:
            log = Path(tmp) / "judge.log"
            try:
                code = server.run(cmd[3:], env, tmp, str(log), timeout)
            except RuntimeError:
                code, server = None, None  # fall back to a plain process below
            else:
                if code is None:
                    return Results.failure(f"the hidden checks did not finish within {timeout:.0f} s")
                output = log.read_text(errors="replace") if log.exists() else ""
        if server is None:
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp)
            except subprocess.TimeoutExpired:
                return Results.failure(f"the hidden checks did not finish within {timeout:.0f} s")
            output, code = r.stdout + r.stderr, r.returncode
        if code == COLLECTION_ERROR:  # a hidden test file that does not import (or a stop): never a score
            lines = output.strip().splitlines()
            named = [ln for ln in lines if ln.startswith(("ERROR ", "E "))][:6] or lines[-5:]
            what = "could not be collected" if "during collection" in output else "were interrupted"
            return Results.failure(f"the hidden checks {what}: " + " | ".join(named))
        if not out.exists() or code in BROKEN_SESSION:
            tail = output.strip().splitlines()[-5:]
            return Results.failure("the hidden-check runner failed: " + " | ".join(tail))
        return Results.load(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.judge.suite")
    ap.add_argument("notebook", type=Path)
    ap.add_argument("--assignment")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--sandbox", default="on", choices=["on", "off", "auto"])
    args = ap.parse_args(argv)
    from ..sandbox import tempdirs
    tempdirs.adopt()  # as autograde: the judge's folders and caches in the grader's own TMPDIR
    assignment = args.assignment or guess_assignment(args.notebook)
    if not assignment:
        print(f"cannot tell which assignment {args.notebook} belongs to; pass --assignment")
        return 2
    res = run_suite(assignment, args.notebook.resolve(), sandbox=args.sandbox, seed=args.seed)
    if res.error:
        print(f"ERROR {res.error}")
        return 2
    by_task: dict[str, list] = {}
    for c in res.checks:
        by_task.setdefault(c.task or "-", []).append(c)
        print(f"{c.status.upper():7} {c.task or '-':18} {c.title}")
        if not c.passed and c.message:
            print(f"        {c.message}")
    print(f"seed {res.seed}")
    for task, cs in by_task.items():
        print(f"  {task:18} {sum(c.passed for c in cs)}/{len(cs)} checks passed")
    for e in res.events:
        print(f"  incident: {e}")
    return 0 if not any(c.failed for c in res.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
