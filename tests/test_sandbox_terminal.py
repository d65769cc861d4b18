"""Red team (issue 38, third pass): a kernel holds neither the terminal nor the log of the command that grades it.

jupyter_client starts a kernel with the grader's own stdout and stderr, and ipykernel keeps a copy of
both (it captures descriptors 1 and 2 but echoes to the originals). Run in a terminal, as the README's
``nbgrader autograde`` is, the submission's kernel held two read-write descriptors on the instructor's
terminal: it wrote escape sequences there (forged lines, a window title, a clipboard on terminals that
take OSC 52), read what was typed into it and changed its settings (``tcsetattr``); only TIOCSTI was
refused (no controlling terminal). Under the pipeline the same descriptors are the submission's log: the
kernel truncated it (the grader's lines about that submission gone) and wrote lines of its own at the start.
The kernel launcher now replaces a terminal on 0-2 by /dev/null and gives the sandbox a file of the kernel's
folder for a log, which the grader copies into its own, marked and escaped, once the kernel is gone.
Here the grader's stdout is a pseudo-terminal and its stderr a log file, as the runner opens it; a notebook
cell writes a mark to every terminal it holds and truncates every file with something in it; both ways a
sandbox is made."""
import os
import select
import subprocess
import sys
import textwrap

import pytest

from course import REPO_ROOT, sandbox
from tests.sandbox_launchers import _template, kernel_launcher  # noqa: F401  (fixtures)

pytestmark = pytest.mark.skipif(not sandbox.resolve(), reason="needs the bubblewrap sandbox")

MARK = b"RT3-MARK-FROM-THE-SANDBOX"
GRADER_LINE = b"[grader] alice: cell x: locked source was edited; restored from the gradebook\n"

DRIVER = textwrap.dedent(r'''
    import os, sys
    from nbformat.v4 import new_code_cell, new_notebook
    from traitlets.config import Config
    from course.grading.config import install_sandbox_kernel
    from course.grading.autograde.preprocessors import SafeExecute
    CELL = """
    import os, stat
    ttys, cut = [], []
    for fd in sorted(int(n) for n in os.listdir('/proc/self/fd')):
        try:
            if os.isatty(fd):
                ttys.append(fd)
                os.write(fd, b'\\x1b]0;title\\x07%s\\n')
            elif stat.S_ISREG(os.fstat(fd).st_mode) and os.fstat(fd).st_size:
                os.ftruncate(fd, 0)
                os.write(fd, b'%s: graded, nothing went wrong\\n')
                cut.append(fd)
        except OSError:
            pass
    print('terminals:', ttys, 'truncated:', cut)
    """ % (sys.argv[1], sys.argv[1])
    meta = {"nbgrader": {"grade": False, "solution": False, "grade_id": "a", "locked": False, "schema_version": 3}}
    nb = new_notebook(cells=[new_code_cell(CELL, metadata=meta)],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    c = Config()
    install_sandbox_kernel(c)
    nb, _ = SafeExecute(config=c, submission_timeout=120, timeout=60).preprocess(nb, {"nbgrader": {"student": "s"}})
    with open(sys.argv[2], "w") as fh:
        fh.write("".join(o.get("text", "") for o in nb.cells[0].outputs))
''')


def test_a_kernel_holds_neither_the_graders_terminal_nor_its_log(tmp_path, kernel_launcher):  # noqa: F811
    master, slave = os.openpty()
    out = tmp_path / "cell.txt"
    log_path = tmp_path / "submission.log"
    log_path.write_bytes(GRADER_LINE)
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND)  # as course.grading.class_run.runner opens it
    env = {**os.environ, "COURSE_KERNEL_PRELOAD": "", "COURSE_SPARE_KERNEL": "0",
           "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, MARK.decode(), str(out)], cwd=REPO_ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=log, start_new_session=True)
    os.close(slave)
    os.close(log)
    seen = b""
    try:
        while True:  # the terminal's side: everything written to it, until the driver exits
            r, _, _ = select.select([master], [], [], 180)
            if not r:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer has closed it
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(timeout=60) == 0, seen[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    cell = out.read_text()
    assert "terminals: []" in cell, f"the kernel holds the grader's terminal: {cell!r}"
    assert MARK not in seen, "the kernel wrote to the grader's terminal"
    written = log_path.read_bytes()
    assert written.startswith(GRADER_LINE), f"the kernel truncated the grader's log: {written[:300]!r}"
    assert not any(ln.startswith(MARK) for ln in written.splitlines()), "the kernel wrote a line of the log"
