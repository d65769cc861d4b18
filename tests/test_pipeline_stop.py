"""Stopping is clean: SIGINT (Ctrl-C) while a submission is being graded ends every process of the
run at once (runner, judge server, zygote, sandbox, kernel), prints one line and exits non-zero."""
import os
import signal
import subprocess
import sys
import threading
import time

import psutil

from course import REPO_ROOT, tool_env
from tests import tiny_course as tc
from tests.pipeline_run import alive

SLOW = "import time\ntime.sleep(300)\nanswer = 42"


def _watch(pid: int, seen: dict, stop: threading.Event) -> None:
    """Every process below ``pid`` while the run lives: {(pid, start time): command line}."""
    while not stop.is_set():
        try:
            for p in psutil.Process(pid).children(recursive=True):
                try:
                    seen.setdefault((p.pid, p.create_time()), " ".join(p.cmdline())[:200])
                except psutil.Error:
                    pass
        except psutil.Error:
            return
        time.sleep(0.1)


def test_sigint_ends_every_process_at_once_with_one_line(tmp_path):
    root = tc.make(tmp_path / "course")
    tc.submit(root, "slow", SLOW)
    env = dict(tool_env(), COURSE_ALLOW_CPU_GRADING="1", COURSE_CELL_TIMEOUT="600")
    cmd = [sys.executable, "-m", "course.grading.pipeline", "--root", str(root), "--assignment", tc.A,
           "--no-examples", "--workers", "1"]
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)  # no terminal; its own group, as a shell's job
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    seen: dict = {}
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(proc.pid, seen, stop), daemon=True)
    watcher.start()
    slow_log = root / "gradebook" / "logs" / tc.A / "slow.log"
    t0 = time.monotonic()
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline and proc.poll() is None:
        if slow_log.exists() and "Autograding" in slow_log.read_text(errors="replace"):
            break
        time.sleep(0.2)
    assert proc.poll() is None, "".join(lines)
    assert time.monotonic() < deadline, "the slow submission's grading never started:\n" + "".join(lines)
    started = time.monotonic() - t0
    # its kernel is running the student's cell (on a loaded machine the kernel starts seconds after the log line)
    while time.monotonic() < deadline and not any("course.sandbox.kernel" in c for c in seen.values()):
        time.sleep(0.2)
    time.sleep(1.5)
    assert any("course.sandbox.kernel" in c for c in seen.values()), seen  # there is something to end
    before = len(lines)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends: the foreground group
    try:
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    reader.join(timeout=10)
    stop.set()
    out = "".join(lines)
    after = [ln.strip() for ln in lines[before:] if ln.strip()]
    assert after == ["stopped: 0 graded, 1 left; run the same command again to finish"], (started, out)
    assert code == 128 + signal.SIGINT, (code, out)
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    time.sleep(2)
    left = {k: c for k, c in seen.items() if alive(k)}
    assert not left, f"processes of the run still alive 2 s after it stopped: {sorted(left.values())}"
