"""``nbgrader release_feedback`` with students who handed in outside the exchange (an LMS zip).

nbgrader releases a feedback page under a hash of the secret the exchange gave the submission; a
submission collected with ``zip_collect`` has no secret, and nbgrader stops the whole release with a
traceback at the first such student. Here each of them is skipped with one line that says where
their page is, and the rest of the class gets theirs.
"""
from __future__ import annotations

import os

from ...plain import one_line


def install() -> None:
    from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback

    if getattr(ExchangeReleaseFeedback, "_course_lms", False):
        return
    original = ExchangeReleaseFeedback.copy_files

    def copy_files(self):
        root = self.coursedir.format_path(self.coursedir.feedback_directory, ".", self.coursedir.assignment_id)
        base = os.path.dirname(os.path.normpath(root))  # feedback/<student>/<assignment>: the students
        excluded = {s for s in (self.coursedir.student_id_exclude or "").split(",") if s}
        outside = []
        for student in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            folder = os.path.join(base, student, self.coursedir.assignment_id)
            if student in excluded or not os.path.isdir(folder):
                continue
            if not os.path.isfile(os.path.join(folder, "submission_secret.txt")):
                outside.append(student)
                self.log.warning("%s: handed in outside the exchange (no submission secret); return %s/*.html "
                                 "to them through your LMS", one_line(student, 80), one_line(folder, 200))
        saved = self.coursedir.student_id_exclude
        self.coursedir.student_id_exclude = ",".join(sorted(excluded | set(outside)))
        try:
            return original(self)
        finally:
            self.coursedir.student_id_exclude = saved

    ExchangeReleaseFeedback.copy_files = copy_files
    ExchangeReleaseFeedback._course_lms = True
