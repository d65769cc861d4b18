"""The memory watchdog's view of a process tree (course.sandbox.TreeRss): it counts memory held by
a child process started after watching began, and stops counting it once that child is gone."""
import subprocess
import sys
import textwrap
import time

from course import sandbox

MB = 2**20

PARENT = textwrap.dedent("""
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c",
        "import sys, time; b = bytearray(300 * 2**20); b[::4096] = b'x' * len(b[::4096]); "
        "print('ready', flush=True); sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    child.stdout.readline()
    print('child ready', flush=True)
    sys.stdin.readline()
    child.stdin.close(); child.wait()
    print('child gone', flush=True)
    sys.stdin.readline()
""")


def test_counts_a_late_child_and_forgets_it_when_it_exits():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        tree = sandbox.TreeRss(parent.pid, rescan=0.2)
        alone = tree.bytes()  # watching starts before the child exists
        assert parent.stdout.readline().strip() == "child ready"
        time.sleep(0.3)
        assert tree.bytes() > alone + 250 * MB, "the watchdog did not see the child's memory"
        parent.stdin.write("\n")
        parent.stdin.flush()
        assert parent.stdout.readline().strip() == "child gone"
        assert tree.bytes() < alone + 100 * MB, "the watchdog still counts a child that exited"
    finally:
        parent.kill()
        parent.wait()


def test_watch_stops_a_tree_past_its_memory_and_says_why_before_the_kill():
    import subprocess
    import sys
    from course.sandbox import procs

    proc = subprocess.Popen([sys.executable, "-c", "import time; b = bytearray(300 * 2**20); b[::4096] = b'x' * "
                             "len(b[::4096]); time.sleep(60)"], start_new_session=True)
    seen = []
    why = procs.watch(lambda: proc, 200 * 2**20, 10_000, 0.1,
                      on_limit=lambda w: seen.append((w, proc.poll())))
    assert why == "memory" and seen == [("memory", None)], (why, seen)  # told while it still ran
    assert proc.wait(timeout=10) != 0


def test_watch_returns_none_for_a_tree_within_its_limits_and_honours_extra_and_stop():
    import subprocess
    import sys
    import threading
    from course.sandbox import procs

    quick = subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True)
    assert procs.watch(lambda: quick, 2**34, 10_000, 0.05) is None
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    assert procs.watch(lambda: slow, 2**34, 10_000, 0.05, extra=lambda: "ipc") == "ipc"
    assert slow.wait(timeout=10) != 0
    stop = threading.Event()
    stop.set()
    assert procs.watch(lambda: None, 1, 1, 0.05, stop=stop) is None
