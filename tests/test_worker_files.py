"""Files one check's code leaves open do not fail later checks (course/judge/adapter.py, round 26 on 15-10).

A worker serves every check of a module: a checkpoint function that leaked one descriptor a call ran the worker out
of files, and later checks of another task (15-10's rng checks, whose answers were right) failed with 'Too many open
files'. After a call that leaves a process of the worker holding more than half its open-files limit, the next call
gets a fresh worker (an incident for the instructor); the leaking call's own verdict stands."""
from course import sandbox
from course.judge.adapter import ProcessStudent

PROBES = '''
import os, resource
KEPT = []

def leak(ns, share):
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    held = len(os.listdir("/proc/self/fd"))
    for _ in range(int(soft * share) - held):
        KEPT.append(os.open("/dev/null", os.O_RDONLY))
    return len(os.listdir("/proc/self/fd"))

def soft(ns):
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]

def opens(ns, n):
    fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(n)]
    for fd in fds:
        os.close(fd)
    return n
'''


def _student():
    return ProcessStudent(["x = 1"], {"t": PROBES}, sandboxed=sandbox.probe() is None, call_timeout=60)


def test_a_worker_crowded_with_files_starts_afresh():
    s = _student()
    try:
        s.ensure_loaded()
        assert s._files, "the worker's open-files limits were not read"
        limit = s.call("soft")
        assert limit in s._files.values(), s._files
        assert s.call("leak", share=0.9) >= limit * 0.8
        # the next check needs a fifth of the limit: the leaked worker could not give it
        assert s.call("opens", n=limit // 5) == limit // 5
        assert any("open files" in e and "afresh" in e for e in s.events), s.events
    finally:
        s.close()


def test_files_held_from_loading_on_are_not_reloaded_again():
    """a notebook that holds most of its files from loading on (its count does not grow during calls) keeps its
    worker: reloading it before every check would cost a load per check"""
    s = ProcessStudent(["import os, resource\n_kept = [os.open('/dev/null', os.O_RDONLY) for _ in "
                        "range(int(resource.getrlimit(resource.RLIMIT_NOFILE)[0] * 0.7))]"], {"t": PROBES},
                       sandboxed=sandbox.probe() is None, call_timeout=60)
    try:
        s.ensure_loaded()
        pid = s.proc.pid
        for _ in range(3):
            s.call("opens", n=1)
        assert s.proc.pid == pid and not any("open files" in e for e in s.events), s.events
    finally:
        s.close()


def test_a_worker_under_half_is_kept():
    s = _student()
    try:
        s.ensure_loaded()
        pid = s.proc.pid
        s.call("leak", share=0.3)
        s.call("opens", n=1)
        assert s.proc.pid == pid and not any("open files" in e for e in s.events), s.events
    finally:
        s.close()
