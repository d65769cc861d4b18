"""A kernel started ahead (course.grading.autograde.spare_kernel): the next notebook runs in it, it is fresh
(nothing of the notebook before), it has imported torch already, and nothing is left behind."""
import os

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from course import sandbox
from course.grading.autograde import spare_kernel
from course.grading.config import install_sandbox_kernel
from course.grading.autograde.kernel import runtime_root
from course.grading.autograde.preprocessors import SafeExecute

pytestmark = pytest.mark.skipif(not sandbox.resolve(), reason="needs the bubblewrap sandbox")

CELL = ("import os, sys\n"
        "seen = sorted(n for n in os.listdir('/tmp/work'))\n"
        "print('torch before the first cell:', 'torch' in sys.modules, 'names:', [n for n in globals() if 'preload' in n])\n"
        "print('left by an earlier notebook:', seen, os.environ.get('LEFT_BEHIND'))\n"
        "open('/tmp/work/marker', 'w').write('x'); os.environ['LEFT_BEHIND'] = 'yes'\n"
        "print('pid', os.getpid(), 'ppid', os.getppid())")


def test_a_one_off_command_starts_no_kernel_ahead():
    assert not spare_kernel._wanted, "only the nbgrader runner asks for kernels started ahead"
    assert not spare_kernel.enabled()


def _run(ex):
    nb = new_notebook(cells=[new_code_cell(CELL, metadata={"nbgrader": {"grade": False, "solution": False,
                                                                        "grade_id": "a", "locked": False,
                                                                        "schema_version": 3}})],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nb, _ = ex.preprocess(nb, {"nbgrader": {"student": "s"}})
    return "".join(o.get("text", "") for o in nb.cells[0].outputs)


def test_the_next_notebook_runs_in_a_fresh_kernel_started_ahead(monkeypatch):
    taken = []
    take = spare_kernel.take
    monkeypatch.setattr(spare_kernel, "take", lambda name: taken.append(take(name)) or taken[-1])
    monkeypatch.setenv("COURSE_SPARE_KERNEL", "1")
    monkeypatch.setattr(spare_kernel, "_wanted", True)  # as in the nbgrader runner
    c = Config()
    install_sandbox_kernel(c)
    spare_kernel.discard()
    started = spare_kernel.started
    ex = SafeExecute(config=c, timeout=120)
    first = _run(ex)
    assert spare_kernel.started == started + 1, "no kernel was started ahead after the first notebook"
    spare = spare_kernel._spare
    adopted_pid = spare.proc.pid
    second = _run(SafeExecute(config=c, timeout=120))
    for out in (first, second):
        assert "torch before the first cell: True names: []" in out, out
        assert "left by an earlier notebook: [] None" in out, out
    assert [t and t.proc.pid for t in taken] == [None, adopted_pid], "the second notebook did not adopt the spare"
    # the kernel started ahead is gone now, with its folder
    assert not os.path.exists(spare.kernel_dir)
    with pytest.raises(ProcessLookupError):
        os.kill(adopted_pid, 0)
    # a third one was started for the next notebook; discarding it leaves no folder or process
    third = spare_kernel._spare
    assert third is not None and third.proc.pid != adopted_pid
    spare_kernel.discard()
    assert not os.path.exists(third.kernel_dir) and third.proc.poll() is not None
    assert [n for n in os.listdir(runtime_root()) if n.startswith("k-")] == []
    # a batch's last notebook (the runner was told no command follows): no kernel is started after it
    spare_kernel.use_in_this_process(False)
    count = spare_kernel.started
    assert "torch before the first cell: True" in _run(SafeExecute(config=c, timeout=120))
    assert spare_kernel.started == count and spare_kernel._spare is None, "a kernel was started for no notebook"


def test_a_spare_started_for_other_settings_is_not_used(monkeypatch):
    monkeypatch.setenv("COURSE_SPARE_KERNEL", "1")
    monkeypatch.setattr(spare_kernel, "_wanted", True)
    monkeypatch.setattr(spare_kernel, "_wanted", True)  # as in the nbgrader runner
    c = Config()
    install_sandbox_kernel(c)
    spare_kernel.discard()
    spare_kernel.prestart("course-sandbox", runtime_root())
    spare = spare_kernel._spare
    monkeypatch.setenv("COURSE_MEMORY_LIMIT_MB", "1234")  # what the launcher reads differs
    assert spare_kernel.take("course-sandbox") is None
    assert spare.proc.poll() is not None and not os.path.exists(spare.kernel_dir)


FORGE = ("import os, stat\n"
         "hit = []\n"
         "for fd in range(64):\n"
         "    try:\n"
         "        if stat.S_ISREG(os.fstat(fd).st_mode):\n"
         "            os.write(fd, b'FORGED by the next student\\n'); hit.append(fd)\n"
         "    except OSError:\n"
         "        pass\n"
         "print('wrote to', hit)")


def test_a_kernel_started_ahead_cannot_write_to_the_log_of_the_command_that_started_it(monkeypatch, tmp_path):
    """Red team (issue 30): the runner points its output at the current submission's log while it runs it,
    and the kernel started ahead then for the next submission inherited it: the next student's code wrote
    into the previous student's log (unescaped, up to the file-size cap)."""
    from jupyter_client import BlockingKernelClient
    monkeypatch.setenv("COURSE_SPARE_KERNEL", "1")
    monkeypatch.setenv("COURSE_KERNEL_PRELOAD", "")  # no torch: a fast boot
    monkeypatch.setattr(spare_kernel, "_wanted", True)
    c = Config()
    install_sandbox_kernel(c)
    spare_kernel.discard()
    log = tmp_path / "previous-student.log"
    saved = os.dup(1), os.dup(2)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)  # as course.grading.class_run.runner does during a command
    os.dup2(fd, 2)
    os.close(fd)
    try:
        spare_kernel.prestart("course-sandbox", runtime_root())
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for f in saved:
            os.close(f)
    spare = spare_kernel.take("course-sandbox")
    assert spare is not None
    import time
    for _ in range(600):  # its five sockets, before a client connects
        if len(os.listdir(os.path.join(spare.kernel_dir, "ipc"))) >= 5 or not spare.alive():
            break
        time.sleep(0.1)
    client = BlockingKernelClient(connection_file=spare.connection_file)
    client.load_connection_file()
    client.start_channels()
    out = []
    try:
        try:
            client.wait_for_ready(timeout=90)
        except RuntimeError:
            pytest.fail(f"the kernel started ahead did not boot: {log.read_text()[-2000:]}")
        client.execute_interactive(FORGE, timeout=60, output_hook=lambda m: out.append(m["content"].get("text", "")))
    finally:
        client.stop_channels()
        spare.discard()
    assert "wrote to" in "".join(out), out
    assert b"FORGED" not in log.read_bytes(), "the next student's kernel wrote into the previous student's log"
