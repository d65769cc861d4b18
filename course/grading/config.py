"""nbgrader settings for grading untrusted submissions (called from nbgrader_config.py)."""
import os


def configure(c) -> None:
    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds,
                                        LimitOutput, OverwriteCells, OverwriteKernelspec, SaveAutoGrades)

    from . import safe_files
    from .preprocessors import JudgeHiddenChecks, RepairGradeCells, SafeExecute, StartHiddenChecks

    # nbgrader's own copy and chmod steps follow links: route them through checked versions.
    safe_files.install()
    escape_log_records()

    # Sanitize: undo tampering with the cell structure before anything runs.
    c.Autograde.sanitize_preprocessors = [ClearOutput, DeduplicateIds, RepairGradeCells, OverwriteKernelspec,
                                          OverwriteCells, CheckCellMetadata]
    # Grade: start the hidden checks outside the kernel, run the notebook in a sandboxed kernel (for
    # feedback and visible checks) meanwhile, then write each test cell's verdict. Without
    # StartHiddenChecks, JudgeHiddenChecks runs the checks itself after the kernel.
    c.Autograde.autograde_preprocessors = [StartHiddenChecks, SafeExecute, JudgeHiddenChecks,
                                           ClearMetadataPreprocessor, LimitOutput, SaveAutoGrades,
                                           AssignLatePenalties, CheckCellMetadata]
    c.SafeExecute.submission_timeout = int(os.environ.get("COURSE_SUBMISSION_TIMEOUT", "900"))
    c.SafeExecute.memory_limit_mb = int(os.environ.get("COURSE_MEMORY_LIMIT_MB", "6144"))
    c.JudgeHiddenChecks.timeout = c.StartHiddenChecks.timeout = int(os.environ.get("COURSE_JUDGE_TIMEOUT", "900"))
    c.LimitOutput.max_lines = 300
    # A cell that keeps printing after its timeout must not abort the rest of the notebook.
    c.Execute.raise_on_iopub_timeout = False
    # The outputs are collected by then: stop the kernel at once instead of waiting for it to exit.
    c.Execute.shutdown_kernel = "immediate"

    # Timestamps in the grading log show which submissions were slow.
    c.Application.log_format = "%(color)s[%(name)s | %(levelname)s | %(asctime)s]%(end_color)s %(message)s"
    c.Application.log_datefmt = "%H:%M:%S"

    install_sandbox_kernel(c)


def escape_log_records() -> None:
    """No log message can start a line of its own: control characters in a message (a student's
    folder or file name, a worker's last words) are escaped, and the lines of a multi-line message
    (a traceback) are indented as continuations, so nothing can forge a line of the grading log."""
    import logging

    factory = logging.getLogRecordFactory()
    if getattr(factory, "_course_escapes", False):
        return

    def make(*args, **kwargs):
        record = factory(*args, **kwargs)
        try:
            msg = record.getMessage()
        except Exception:
            return record
        if not msg.isprintable():
            record.msg, record.args = continuation_lines(msg), None
        return record

    make._course_escapes = True
    logging.setLogRecordFactory(make)


def continuation_lines(msg: str, limit: int = 20_000) -> str:
    out = "".join(ch if ch.isprintable() or ch == "\n" else repr(ch)[1:-1] for ch in msg[:limit])
    return out.replace("\n", "\n    | ")


def install_sandbox_kernel(c) -> None:
    """Make the ``course-sandbox`` kernelspec findable and give every kernel a folder of its own.

    The kernelspec and the kernels' runtime folder are made here, outside any sandbox, and are
    never mounted into one (a kernel sees only its own ``ipc/`` folder and a read-only copy of its
    connection file). Leftovers of crashed runs are removed first."""
    import atexit
    import json
    import shutil
    import sys
    import tempfile

    from .. import REPO_ROOT, tempdirs

    tempdirs.sweep()
    home = tempdirs.make("kernelspec")
    spec_dir = os.path.join(home, "kernels", "course-sandbox")
    os.makedirs(spec_dir)
    with open(os.path.join(spec_dir, "kernel.json"), "w") as fh:
        json.dump({"argv": [sys.executable, "-m", "course.sandbox_kernel", "-f", "{connection_file}"],
                   "display_name": "Python 3 (course sandbox)", "language": "python",
                   # signals do not cross into the sandbox: interrupt through the control channel
                   "interrupt_mode": "message",
                   "env": {"PYTHONPATH": str(REPO_ROOT)}}, fh)
    old = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep)
           if p and not os.path.basename(p.rstrip("/")).startswith("course-kernelspec-")]
    os.environ["JUPYTER_PATH"] = os.pathsep.join([home, *old])
    runtime = tempdirs.make("kernels")
    os.environ["JUPYTER_RUNTIME_DIR"] = os.environ["COURSE_KERNEL_ROOT"] = runtime
    c.KernelManager.transport = "ipc"
    atexit.register(shutil.rmtree, home, True)
    atexit.register(shutil.rmtree, runtime, True)
