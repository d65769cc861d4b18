"""Phase times of one judge session, for ``python -m course.authoring.bench --profile`` only.

Loaded into a judge session through ``PYTEST_PLUGINS=course.authoring.bench_timing`` when
``COURSE_BENCH_TIMES`` names a file; it appends one JSON line per phase (wall-clock start and end)
to that file and changes nothing else: the same checks run, with the same verdicts. Never loaded
by ordinary grading.
"""
from __future__ import annotations

import json
import os
import time

import pytest


def _emit(name: str, start: float, end: float) -> None:
    path = os.environ.get("COURSE_BENCH_TIMES")
    if not path:
        return
    with open(path, "a") as fh:
        fh.write(json.dumps({"phase": name, "start": start, "end": end, "pid": os.getpid()}) + "\n")


def _timed(cls, method: str, name_of) -> None:
    original = getattr(cls, method)
    if getattr(original, "_bench_timed", False):
        return

    def wrapper(self, *args, **kwargs):
        t0 = time.time()
        try:
            return original(self, *args, **kwargs)
        finally:
            name = name_of(args, kwargs)
            if name:
                _emit(name, t0, time.time())

    wrapper._bench_timed = True
    setattr(cls, method, wrapper)


_T: dict = {}


def pytest_configure(config):
    _T["configure"] = time.time()
    from course.judge.adapter import ProcessStudent
    _timed(ProcessStudent, "_start", lambda a, k: "worker: start, probes and code load")
    _timed(ProcessStudent, "_request",
           lambda a, k: {"probes": "worker: probes loaded", "load": "worker: student code load"}.get(
               (a[0] if a else k.get("msg", {})).get("op")))


def pytest_collection_finish(session):
    _emit("judge: session start to collected", _T.get("configure", time.time()), time.time())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    t0 = time.time()
    yield
    _emit("judge: check", t0, time.time())


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    t0 = time.time()
    yield
    if fixturedef.argname == "student":
        _emit("judge: student fixture", t0, time.time())


@pytest.hookimpl(hookwrapper=True)
def pytest_sessionfinish(session, exitstatus):
    t0 = time.time()
    yield
    _T["finish"] = time.time()
    _emit("judge: session finish (workers closed, results written)", t0, _T["finish"])


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    _emit("judge: pytest unconfigure", _T.get("finish", time.time()), time.time())
