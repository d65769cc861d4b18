"""A kernel started ahead (course.grading.spare_kernel): the next notebook runs in it, it is fresh
(nothing of the notebook before), it has imported torch already, and nothing is left behind."""
import os

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from course import sandbox
from course.grading import spare_kernel
from course.grading.config import install_sandbox_kernel
from course.grading.kernel import runtime_root
from course.grading.preprocessors import SafeExecute

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
