"""nbgrader settings for grading untrusted submissions (called from nbgrader_config.py)."""
import os


def configure(c) -> None:
    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds,
                                        LimitOutput, OverwriteCells, OverwriteKernelspec, SaveAutoGrades)

    from .preprocessors import JudgeHiddenChecks, RepairGradeCells, SafeExecute, StartHiddenChecks

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


def install_sandbox_kernel(c) -> None:
    """Make the ``course-sandbox`` kernelspec findable and give kernels a private IPC runtime folder."""
    import json
    import sys
    import tempfile

    from .. import REPO_ROOT

    home = tempfile.mkdtemp(prefix="course-kernelspec-")
    spec_dir = os.path.join(home, "kernels", "course-sandbox")
    os.makedirs(spec_dir)
    with open(os.path.join(spec_dir, "kernel.json"), "w") as fh:
        json.dump({"argv": [sys.executable, "-m", "course.sandbox_kernel", "-f", "{connection_file}"],
                   "display_name": "Python 3 (course sandbox)", "language": "python",
                   # signals do not cross into the sandbox: interrupt through the control channel
                   "interrupt_mode": "message",
                   "env": {"PYTHONPATH": str(REPO_ROOT)}}, fh)
    os.environ["JUPYTER_PATH"] = home + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    # IPC sockets in a private folder: the sandbox has no network, and no other kernel's keys are visible.
    runtime = tempfile.mkdtemp(prefix="course-kernels-")
    os.environ["JUPYTER_RUNTIME_DIR"] = runtime
    c.KernelManager.transport = "ipc"
    c.KernelManager.ip = os.path.join(runtime, "kernel")  # absolute: kernel and client cwd differ
