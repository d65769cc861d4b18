"""What the instructor test suite costs, per test file: CPU seconds (this process and every process it
started, sandboxes included) as well as wall seconds, and the topics each file covered.

As a pytest plugin (tests/conftest.py loads it when ``COURSE_TEST_COST`` names a file): each test's
setup, call and teardown are measured in the process that runs them (an xdist worker, or pytest
itself) and appended to that file as one JSON line. Where it can (root, a v1 cpuacct hierarchy of its
own), each such process moves into a cpuacct group of its own and a phase's CPU is that group's usage:
everything the tests started, sandboxes and orphans reparented to PID 1 included (a verdict run of
15-02 used 83 s of CPU by its group, of which the process tree below showed 33 s). Elsewhere it is

    this process's own user+system time
  + the children it has waited for (``RUSAGE_CHILDREN``: a reaped child carries the time of the
    children it reaped in turn, so a finished grading run counts whole)
  + every live descendant's user+system time and that of the children it reaped,

each as the change over the phase. Each phase boundary is measured once: a phase starts where the one
before it in the same process ended, so a judge server or a spare kernel that outlives one test is charged
to the tests it ran during or before, and nothing between two tests is lost. What a process cost before
its first test (start, imports, collection) is a record of its own, ``(collection)``. A process orphaned
to PID 1 before it is counted is lost (the pipeline's own stop makes itself the subreaper of what it
starts). Other sessions' processes on the machine are never counted, so the figures hold on a loaded
machine where ``--durations`` does not. Each record carries ``self``: the CPU spent measuring.

``make test`` records every run this way (gradebook/test-cost.jsonl); ``make test-cost-table`` then runs
``python -m course.authoring.suite_cost RECORDS --write FILE``: the records summed per test file into a
table (file, CPU s, wall s, tests, topics), put into FILE between the two marker lines
(docs/performance.md), with what the measuring cost. ``make test-cost`` does both for a chosen subset.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sys
import time
from pathlib import Path

ENV = "COURSE_TEST_COST"
BEGIN = "<!-- suite-cost table: written by make test-cost -->"
END = "<!-- end of suite-cost table -->"
TOPIC = re.compile(r"\b(\d\d-\d\d)\b")


CPUACCT = "/sys/fs/cgroup/cpuacct"
_GROUP: str | None = None  # this process's own cpuacct group, when it has one (enter_group)


def _own_cpuacct() -> str | None:
    """This process's path in a v1 cpuacct hierarchy of its own (not shared with the cpu controller, so a
    new group there changes no CPU shares), or None."""
    try:
        for line in open("/proc/self/cgroup"):
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            if ctrls == "cpuacct":
                return path
    except (OSError, ValueError):
        pass
    return None


def enter_group() -> str | None:
    """Move this process into a cpuacct group of its own, below the one it is in, so that every process it
    starts from now on is counted there, an orphan reparented to PID 1 and a sandbox's processes too (the
    sandbox's own groups are made below it). Its folder, or None where that cannot be done (no separate v1
    cpuacct hierarchy, not root): then the tree of live and reaped descendants is counted instead."""
    global _GROUP
    own = _own_cpuacct()
    if own is None:
        return None
    base = os.path.join(os.path.realpath(CPUACCT), own.lstrip("/"))
    for old in Path(base).glob("testcost-*"):  # empty groups of earlier runs' ended processes
        try:
            os.kill(int(old.name.split("-", 1)[1]), 0)
        except ProcessLookupError:
            for folder, _, _ in os.walk(old, topdown=False):  # its workers' groups first (a busy one stays)
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
        except (ValueError, OSError):
            pass
    d = os.path.join(base, f"testcost-{os.getpid()}")
    try:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "cgroup.procs"), "w") as fh:
            fh.write(str(os.getpid()))
        int(open(os.path.join(d, "cpuacct.usage")).read())
    except (OSError, ValueError):
        try:
            os.rmdir(d)
        except OSError:
            pass
        return None
    _GROUP = d
    return d


def leave_group() -> None:
    """Back to the parent group; the own one is removed once nothing runs in it (else the next run removes it:
    a judge server still alive at this point ends only at the process's exit)."""
    global _GROUP
    d, _GROUP = _GROUP, None
    if d is None:
        return
    try:
        with open(os.path.join(os.path.dirname(d), "cgroup.procs"), "w") as fh:
            fh.write(str(os.getpid()))
        os.rmdir(d)
    except OSError:
        pass


def cpu_now() -> float:
    """CPU seconds of everything in this process's own cpuacct group (enter_group), else of this process,
    the children it reaped, and every live descendant."""
    if _GROUP is not None:
        try:
            return int(open(os.path.join(_GROUP, "cpuacct.usage")).read()) / 1e9
        except (OSError, ValueError):
            pass
    return tree_cpu()


def tree_cpu() -> float:
    """CPU seconds of this process, the children it reaped, and every live descendant."""
    import psutil

    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime
    try:
        live = psutil.Process().children(recursive=True)
    except psutil.Error:
        live = []
    for p in live:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


# -- the pytest plugin --------------------------------------------------------------------------------

_LAST: tuple[float, float] | None = None  # (CPU, wall) at the last phase boundary in this process
_SELF = 0.0  # CPU this process spent measuring, not yet written into a record


def _snapshot() -> tuple[float, float]:
    """(CPU, wall) now. Each boundary is measured once: a phase starts where the one before it in this
    process ended, so what happens between two tests (pytest's reports, a spare zygote starting) is charged
    to the next one instead of being lost, and a test costs three scans of /proc, not six."""
    global _SELF
    t = time.process_time()
    now = (cpu_now(), time.monotonic())
    _SELF += time.process_time() - t
    return now


def _out() -> Path | None:
    path = os.environ.get(ENV)
    return Path(path) if path else None


def _start(item) -> None:
    global _LAST
    if not _MEASURING:
        return
    if _LAST is None:
        _LAST = _snapshot()


def _stop(item, phase: str) -> None:
    global _LAST, _SELF
    out = _out()
    if not _MEASURING or _LAST is None or out is None:
        return
    began, _LAST = _LAST, _snapshot()
    cpu, wall = _LAST[0] - began[0], _LAST[1] - began[1]
    rec = {"nodeid": item.nodeid, "phase": phase, "cpu": round(cpu, 3), "wall": round(wall, 3),
           "self": round(_SELF, 4), "how": how(), "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "pid": os.getpid(),
           "only": os.environ.get("COURSE_ONLY", "")}
    _SELF = 0.0
    with open(out, "a") as fh:  # one short line per write: appends of two workers do not interleave
        fh.write(json.dumps(rec) + "\n")


def _wrap(phase: str):
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def hook(item):
        if item.config is not _OUTER:  # a pytest run inside a test: its cost is that test's
            yield
            return
        _start(item)
        try:
            yield
        finally:
            _stop(item, phase)
    hook.__name__ = f"pytest_runtest_{phase}"
    return hook


MAIN = ENV + "_MAIN"  # the pid of the pytest that was started for the measure


def pytest_configure(config) -> None:
    """Only the tests of the measured run count: those its own process or its xdist workers run, not a
    pytest a test starts in turn (a judge runs each hidden suite as one), whose cost its test already bears.
    A pytest a test runs inside this process (pytest.main) changes nothing: the first configuration decides."""
    global _MEASURING, _OUTER
    if _OUTER is not None:
        return
    _OUTER = config
    if not hasattr(config, "workerinput") and not os.environ.get(MAIN):
        os.environ[MAIN] = str(os.getpid())
    _MEASURING = hasattr(config, "workerinput") or os.environ.get(MAIN) == str(os.getpid())
    if _MEASURING and _out() is not None:
        enter_group()


def pytest_unconfigure(config) -> None:
    global _OUTER
    if config is _OUTER:
        _OUTER = None
        leave_group()


_MEASURING = False
_OUTER = None  # the configuration of the pytest this process was started for

def pytest_collection_finish(session) -> None:
    """What this process cost before its first test (starting, importing and collecting every test file),
    as a record of its own: ``(collection)``."""
    global _LAST
    out = _out()
    if not _MEASURING or out is None or _LAST is not None or session.config is not _OUTER:
        return
    import psutil
    try:
        began = psutil.Process().create_time()
    except psutil.Error:
        began = time.time()
    before = tree_cpu()  # the process's own CPU so far (its group counts only from pytest_configure on)
    _LAST = _snapshot()
    rec = {"nodeid": COLLECTION, "phase": "collect", "cpu": round(before, 3), "wall": round(time.time() - began, 3),
           "self": 0.0, "how": how(), "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "pid": os.getpid(),
           "only": os.environ.get("COURSE_ONLY", "")}
    with open(out, "a") as fh:
        fh.write(json.dumps(rec) + "\n")


COLLECTION = "(collection)"


def how() -> str:
    """How a record's CPU was counted: "cgroup" (everything started, orphans too) or "tree" (a floor)."""
    return "cgroup" if _GROUP is not None else "tree"

if os.environ.get(ENV):  # imported as a plugin only then; the summariser below needs no pytest
    pytest_runtest_setup = _wrap("setup")
    pytest_runtest_call = _wrap("call")
    pytest_runtest_teardown = _wrap("teardown")


# -- the table ----------------------------------------------------------------------------------------

def file_of(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    return path.removeprefix("tests/")


def summarise(lines) -> list[dict]:
    """Per test file: CPU and wall seconds (all phases summed), tests, and the topics its tests are
    parametrised on or live under (a file that grades one fixed topic or a tiny course shows none); costliest first."""
    files: dict[str, dict] = {}
    for ln in lines:
        try:
            rec = json.loads(ln)
        except ValueError:
            continue
        f = files.setdefault(file_of(rec["nodeid"]), {"cpu": 0.0, "wall": 0.0, "tests": set(), "topics": set()})
        f["cpu"] += rec["cpu"]
        f["wall"] += rec["wall"]
        f["tests"].add(rec["nodeid"])
        topics = set(TOPIC.findall(rec["nodeid"].split("::", 1)[-1]))
        topics |= set(TOPIC.findall(rec["nodeid"].split("::", 1)[0]))
        f["topics"] |= topics
    rows = [{"file": name, "cpu": v["cpu"], "wall": v["wall"], "tests": len(v["tests"]),
             "topics": sorted(v["topics"])} for name, v in files.items()]
    return sorted(rows, key=lambda r: -r["cpu"])


def measuring_cost(lines) -> float:
    """CPU seconds the plugin spent measuring (each record's ``self``), already inside the records' CPU."""
    total = 0.0
    for ln in lines:
        try:
            total += json.loads(ln).get("self", 0.0)
        except (ValueError, AttributeError):
            continue
    return total


def counted_how(lines) -> dict[str, int]:
    """How many records counted their CPU each way (``how``: cgroup or tree)."""
    out: dict[str, int] = {}
    for ln in lines:
        try:
            k = json.loads(ln).get("how", "tree")
        except (ValueError, AttributeError):
            continue
        out[k] = out.get(k, 0) + 1
    return out


def table(rows: list[dict], note: str = "") -> str:
    out = [f"{note}" if note else "", "",
           "| test file | CPU s | wall s | tests | topics |",
           "|-----------|------:|-------:|------:|--------|"]
    for r in rows:
        topics = ", ".join(r["topics"]) if len(r["topics"]) <= 4 else f"{len(r['topics'])} ({r['topics'][0]} .. {r['topics'][-1]})"
        out.append(f"| {r['file']} | {r['cpu']:.0f} | {r['wall']:.0f} | {r['tests']} | {topics or '-'} |")
    out.append(f"| **all** | **{sum(r['cpu'] for r in rows):.0f}** | {sum(r['wall'] for r in rows):.0f} | "
               f"{sum(r['tests'] for r in rows)} | |")
    return "\n".join(out).strip("\n") + "\n"


def write_into(doc: Path, text: str) -> None:
    """``text`` between the marker lines of ``doc`` (appended under a heading the first time)."""
    old = doc.read_text() if doc.exists() else ""
    block = f"{BEGIN}\n{text}{END}\n"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + block + "\n" + rest.split(END, 1)[1].lstrip("\n")
    else:
        new = old.rstrip("\n") + "\n\n## The suite's cost per test file\n\n" + block
    doc.write_text(new)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.suite_cost")
    ap.add_argument("records", type=Path, help=f"the JSON lines written under {ENV}")
    ap.add_argument("--write", type=Path, help="put the table into this file (between its marker lines)")
    ap.add_argument("--note", default="", help="a line above the table (when, what was run)")
    args = ap.parse_args(argv)
    if not args.records.exists():
        print(f"{args.records}: no records (was the suite run with {ENV}={args.records}?)")
        return 1
    rows = summarise(args.records.read_text().splitlines())
    if not rows:
        print(f"{args.records}: no test was measured")
        return 1
    note = args.note or (f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores, "
                         f"load average {os.getloadavg()[0]:.1f} at the end; CPU: the test's process and all it started.")
    text = table(rows, note)
    lines = args.records.read_text().splitlines()
    own = measuring_cost(lines)
    total = sum(r["cpu"] for r in rows)
    ways = counted_how(lines)
    text += (f"\nCPU counted {' and '.join(f'by {k} in {v} records' for k, v in sorted(ways.items()))} (cgroup: all a "
             f"test started, orphans and sandboxes too; tree: its live and reaped descendants, a floor). "
             f"The measuring itself: {own:.1f} s of CPU, {100 * own / total if total else 0:.2f} % of the measured.\n")
    print(text, end="")
    if args.write:
        write_into(args.write, text)
        print(f"written into {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
