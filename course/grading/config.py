"""nbgrader settings for grading untrusted submissions (called from nbgrader_config.py)."""
import os
import sys

from .. import settings


def configure(c) -> None:
    # a password typed in nbgrader's --db leaves this command's arguments, which every account reads, at once
    from .records import db_url
    db_url.reexec_nbgrader_without_password()
    moved = db_url.said_moved()
    if moved:
        print(db_url.NOTICE.format(env=moved), file=sys.stderr)

    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds,
                                        LimitOutput, OverwriteCells, OverwriteKernelspec, SaveAutoGrades)

    from .intake import lms_feedback, safe_files
    from .autograde.preprocessors import (CapOutputSize, InertOutput, JudgeHiddenChecks, MarkForgedVerdicts, NoteIncidents,
                                RepairGradeCells, SafeExecute, SanitizeStudentCells, StartHiddenChecks)

    # Sandbox settings that cannot be read stop the command now (nbgrader_config.py refuses), not
    # in the middle of a batch.
    from .. import sandbox
    sandbox.mode()
    if sandbox.separate_account():
        sandbox.uid_range()

    # The course root is the instructor's alone; the exchange is the course's (checked before each step).
    from .class_run import course_root
    from .intake import exchange_root
    if "root" in c.CourseDirectory:
        course_root.make_private(c.CourseDirectory.root, say=lambda line: print(line, file=sys.stderr))
    exchange_root.install()

    # nbgrader's own copy and chmod steps follow links: route them through checked versions.
    safe_files.install()
    lms_feedback.install()
    from .class_run import gradebook_head
    gradebook_head.install()  # no `alembic heads` subprocess for each new gradebook
    escape_log_records()
    quiet_known_noise()
    sandbox_validate()

    # Sanitize: undo tampering with the cell structure before anything runs.
    # RepairGradeCells comes before nbgrader's own steps, which stop on malformed metadata.
    c.Autograde.sanitize_preprocessors = [ClearOutput, RepairGradeCells, DeduplicateIds, OverwriteKernelspec,
                                          OverwriteCells, CheckCellMetadata]
    # Grade: take the code for the hidden checks, run the notebook in a sandboxed kernel (for feedback
    # and visible checks), then, the kernel gone, run the hidden checks outside it and write each test
    # cell's verdict (never beside the kernel: issue 38).
    # Before the verdicts: only inert output (text, PNG, JPEG), measured as written and capped, lines
    # that imitate a verdict marked, the lines of each cell capped, and the student's markdown and raw
    # cells made inert. Nothing after JudgeHiddenChecks changes outputs: the verdict stays whole and last.
    # NoteIncidents then puts what went wrong while grading in a note at the top (a markdown cell).
    c.Autograde.autograde_preprocessors = [StartHiddenChecks, SafeExecute, InertOutput, CapOutputSize,
                                           MarkForgedVerdicts, LimitOutput, SanitizeStudentCells, JudgeHiddenChecks,
                                           NoteIncidents, ClearMetadataPreprocessor, SaveAutoGrades,
                                           AssignLatePenalties, CheckCellMetadata]
    c.SafeExecute.max_output_bytes = c.CapOutputSize.max_output_bytes = 2_000_000
    c.SafeExecute.max_total_output_bytes = c.CapOutputSize.max_total_output_bytes = 8_000_000
    html_sanitizing(c)
    # export: a status column, so "not submitted" and "not graded" are not read as 0.
    c.ExportApp.plugin_class = "course.grading.report.grades_csv.CsvWithStatus"
    # zip_collect: Canvas, Moodle and Blackboard downloads; a file belongs to whoever uploaded it
    # (course/grading/intake/lms_collect.py).
    c.ZipCollectApp.extractor_plugin = "course.grading.intake.lms_collect.LmsExtractor"
    c.ZipCollectApp.collector_plugin = "course.grading.intake.lms_collect.LmsCollector"
    # collect: an inbound submission belongs to the account that made it, whatever name it gives
    c.ExchangeFactory.collect = "course.grading.intake.exchange_collect.OwnedCollect"
    # One memory: plain `nbgrader autograde` records what it graded where the pipeline reads it.
    from .class_run import plain_autograde
    c.Autograde.pre_convert_hook = plain_autograde.before
    c.Autograde.post_convert_hook = plain_autograde.after
    limits = settings.current()
    c.SafeExecute.submission_timeout = limits.submission_timeout
    c.SafeExecute.memory_limit_mb = limits.memory_limit_mb
    c.SafeExecute.task_limit = limits.task_limit
    c.JudgeHiddenChecks.timeout = c.StartHiddenChecks.timeout = limits.judge_timeout
    c.LimitOutput.max_lines = 300
    # A cell that keeps printing after its timeout must not abort the rest of the notebook.
    c.Execute.raise_on_iopub_timeout = False
    # The outputs are collected by then: stop the kernel at once instead of waiting for it to exit.
    c.Execute.shutdown_kernel = "immediate"

    # Timestamps in the grading log show which submissions were slow.
    c.Application.log_format = "%(color)s[%(name)s | %(levelname)s | %(asctime)s]%(end_color)s %(message)s"
    c.Application.log_datefmt = "%H:%M:%S"

    install_sandbox_kernel(c)


# nbgrader's Gradebook.add_submission builds a submission's rows before adding the submission (which
# adds them all); SQLAlchemy 2 warns at each autoflush in between that the rows are not added yet.
SA_NOT_IN_SESSION = (r"Object of type <\w+> not in session, add operation along '\w+\.\w+' will not proceed")


def quiet_known_noise() -> None:
    """Messages nobody can act on stay off the terminal, each matched exactly; any other warning shows."""
    import logging
    import warnings

    from sqlalchemy.exc import SAWarning
    warnings.filterwarnings("ignore", message=SA_NOT_IN_SESSION, category=SAWarning)
    log = logging.getLogger("ZipCollectApp")
    if not any(isinstance(f, NoDownloadYet) for f in log.filters):
        log.addFilter(NoDownloadYet())


class NoDownloadYet:
    """``zip_collect`` with nothing downloaded from an LMS (the README's block runs it after ``collect``
    in every class): one line says so, instead of nbgrader's three warnings about missing folders."""

    def filter(self, record) -> bool:
        msg = record.getMessage()
        for start in ("Directory not found: ", "No files found in directory: "):
            if not msg.startswith(start):
                continue
            folder = msg[len(start):]
            if os.path.isdir(os.path.join(os.path.dirname(folder), "archive")):
                return True  # there is a download: nbgrader's words stand
            if start == "Directory not found: " and os.path.basename(folder) == "archive":
                record.msg, record.args, record.levelname, record.levelno = (
                    f"no LMS download in {folder}: nothing to collect from an LMS (submissions through the "
                    "exchange come with `nbgrader collect`)", None, "INFO", 20)
                return True
            return False  # the extracted folder of a download that is not there
        return True


def sandbox_validate() -> None:
    """``nbgrader validate`` run in the course root (an instructor checking a submission) executes in
    the same sandboxed kernel as autograde: nbgrader's Validator has no setting for its steps, so its
    Execute step is replaced by SafeExecute here, where nbgrader loads the course's settings."""
    from nbgrader import validator
    from nbgrader.preprocessors import Execute

    from .autograde.preprocessors import SafeExecute

    trait = validator.Validator.preprocessors
    steps = [SafeExecute if p is Execute else p for p in trait.make_dynamic_default()]
    if SafeExecute not in steps:
        raise RuntimeError("nbgrader's Validator has no Execute step to replace (an nbgrader upgrade?)")
    trait.default_args = (steps,)


def html_sanitizing(c) -> None:
    """Feedback pages and the formgrader (nbconvert's HTML) sanitize markdown, raw cells and HTML
    output once more, with the nh3 policy used for the students' cells: nbconvert's own filter
    (bleach, a short allow-list) would escape headings, paragraphs and images, and nbgrader's
    templates render markdown without it, so both filters are replaced. Code is highlighted with the course's
    lexer within a CPU budget (``safe_html.highlight``), never one a cell's metadata names, and ``files/`` links
    are rewritten in linear time (``safe_html.strip_files_prefix``)."""
    c.HTMLExporter.sanitize_html = True
    # the formgrader's templates print a student's name unescaped (from the LMS's roster: the student's to edit)
    c.HTMLExporter.preprocessors = ["course.grading.report.formgrader_names.EscapeNames"]
    c.HTMLExporter.filters = {"clean_html": "course.grading.autograde.safe_html.clean_html",
                              "markdown2html": "course.grading.autograde.safe_html.markdown2html",
                              "highlight_code": "course.grading.autograde.safe_html.highlight_code",
                              "strip_files_prefix": "course.grading.autograde.safe_html.strip_files_prefix"}


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
    import sys

    from .. import REPO_ROOT
    from .. import fstree
    from ..sandbox import tempdirs

    tempdirs.adopt()  # the grader's own TMPDIR (/tmp/course-grader-<uid>): no name there is a student's
    tempdirs.sweep()
    home = tempdirs.make("kernelspec")
    spec_dir = os.path.join(home, "kernels", "course-sandbox")
    os.makedirs(spec_dir)
    with open(os.path.join(spec_dir, "kernel.json"), "w") as fh:
        json.dump({"argv": [sys.executable, "-m", "course.sandbox.kernel", "-f", "{connection_file}"],
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
    atexit.register(fstree.remove, home)
    atexit.register(fstree.remove, runtime)
