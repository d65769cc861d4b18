# nbgrader configuration for the Advanced PyTorch Internals course.
# Paths are relative to this folder (the course root).
#
# Fail closed: if anything below raises, nbgrader would log the error and carry on with its own
# defaults (student code run unsandboxed, on the host). So every error here ends the command at
# once with one line, before any notebook is read.
c = get_config()  # noqa: F821  (provided by nbgrader)

try:
    import os
    import sys

    _here = os.path.dirname(os.path.abspath(__file__))
    if _here not in sys.path:
        sys.path.insert(0, _here)

    c.CourseDirectory.course_id = "advanced-pytorch-internals"
    c.CourseDirectory.root = _here
    # Grading state lives under gradebook/ so the top level stays as designed.
    c.CourseDirectory.db_url = "sqlite:///" + os.path.join(_here, "gradebook", "gradebook.db")
    c.CourseDirectory.submitted_directory = os.path.join("gradebook", "submitted")
    c.CourseDirectory.feedback_directory = os.path.join("gradebook", "feedback")
    c.CourseDirectory.source_with_tests_directory = os.path.join("gradebook", "source_with_tests")
    c.CourseDirectory.solution_directory = os.path.join("gradebook", "solution")
    # Authoring files (*.nb.py) stay out of the student release.
    c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "*.nb.py", ".hypothesis"]

    # `nbgrader export` writes the class's grades next to the gradebook, not into the course root.
    c.ExportPlugin.to = os.path.join(_here, "gradebook", "grades.csv")

    # The exchange (release_assignment, fetch_assignment, submit, collect, release_feedback,
    # fetch_feedback). Set NBGRADER_EXCHANGE to a folder every user of the course can reach.
    if os.environ.get("NBGRADER_EXCHANGE"):
        c.Exchange.root = os.environ["NBGRADER_EXCHANGE"]

    # zip_collect (downloads from Canvas, Moodle or Blackboard in downloaded/<assignment>/archive/) knows
    # each LMS's file names: see course/grading/intake/lms_collect.py, installed by configure() below.

    # Time limits (seconds). Per cell in the notebook kernel, and per check / per
    # submission load in the hidden-check judge.
    from course import settings

    c.Execute.timeout = settings.current().cell_timeout
    c.Execute.interrupt_on_timeout = True

    # The grading pipeline: untrusted code runs in a sandboxed kernel, hidden checks
    # run outside the kernel, and cell tampering is undone before anything runs.
    from course.grading.config import configure

    configure(c)
except BaseException as _exc:  # noqa: B036  (SystemExit passes traitlets' "except Exception")
    raise SystemExit(f"nbgrader_config.py: the course's grading configuration failed to load "
                     f"({type(_exc).__name__}: {str(_exc)[:300]}); refusing to run: no notebook was read "
                     f"or executed. Fix the cause and run the command again.") from None
