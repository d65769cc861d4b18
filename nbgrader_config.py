# nbgrader configuration for the Advanced PyTorch Internals course.
# Paths are relative to this folder (the course root).
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

c = get_config()  # noqa: F821  (provided by nbgrader)

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

# The exchange (release_assignment, fetch_assignment, submit, collect, release_feedback,
# fetch_feedback). Set NBGRADER_EXCHANGE to a folder every user of the course can reach.
if os.environ.get("NBGRADER_EXCHANGE"):
    c.Exchange.root = os.environ["NBGRADER_EXCHANGE"]

# zip_collect (submissions downloaded from an LMS into downloaded/<assignment>/archive/): a file is
# "<student id>_<anything>_<notebook>.ipynb", e.g. "alice_12345_assignsubmission_file_15-01_custom_autograd.ipynb".
c.FileNameCollectorPlugin.named_regexp = (
    r"^(?:.*/)?(?P<student_id>[A-Za-z0-9.\-]+)_(?:.*_)?(?P<file_id>\d\d-\d\d_[A-Za-z0-9_\-]+\.ipynb)$")

# Time limits (seconds). Per cell in the notebook kernel, and per check / per
# submission load in the hidden-check judge.
c.Execute.timeout = int(os.environ.get("COURSE_CELL_TIMEOUT", "60"))
c.Execute.interrupt_on_timeout = True

# The grading pipeline: untrusted code runs in a sandboxed kernel, hidden checks
# run outside the kernel, and cell tampering is undone before anything runs.
from course.grading.config import configure  # noqa: E402

configure(c)
