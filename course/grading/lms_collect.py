"""``nbgrader zip_collect`` for downloads from Canvas, Moodle and Blackboard.

nbgrader's collector applies one regular expression to each file; LMS downloads come in several
shapes, and a student id that holds ``_``, a space or ``@`` was cut short or skipped. Each shape
below is recognised by what the LMS itself puts around the name (``_<digits>_<digits>_``,
``_assignsubmission_file_``, ``_attempt_<date>_``), so the student id may hold any character:

    Canvas      <student>_[LATE_]<user id>_<submission id>_<notebook>.ipynb
    Moodle      <First Last>_<id>_assignsubmission_file_/<notebook>.ipynb  (a folder, or flat)
    Blackboard  <assignment>_<student>_attempt_<YYYY-MM-DD-HH-MM-SS>_<notebook>.ipynb
    a zip       <student>.zip holding <notebook>.ipynb
    generic     <student>_<notebook>.ipynb

Whatever the shape, the notebook is the assignment's notebook name at the end of the file name
(browser and LMS suffixes such as "-1" or " (1)" are matched at autograde). A file that fits no
shape is skipped with one line that says why. Spaces in a Moodle name become "-".
"""
from __future__ import annotations

import os
import re

from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

NOTEBOOK = r"(?P<file_id>\d\d-\d\d_[^/]+?\.ipynb)"
SHAPES = [
    ("Canvas", re.compile(rf"^(?P<student_id>[^/]+?)_(?:LATE_)?\d+_\d+_{NOTEBOOK}$")),
    ("Moodle", re.compile(rf"^(?P<student_id>[^/]+?)_\d+_assignsubmission_file_/?{NOTEBOOK}$")),
    ("Blackboard", re.compile(rf"^[^/]+?_(?P<student_id>[^/]+?)_attempt_"
                              rf"(?P<timestamp>\d{{4}}-\d\d-\d\d-\d\d-\d\d-\d\d)_{NOTEBOOK}$")),
    ("zip of the notebook", re.compile(rf"^(?P<student_id>[^/]+)/{NOTEBOOK}$")),
    ("generic", re.compile(rf"^(?P<student_id>[^/]+?)_{NOTEBOOK}$")),
]
STUDENT_ID = re.compile(r"^[\w.@+\-]{1,100}$")


def student_id(raw: str) -> str:
    return re.sub(r"\s+", "-", raw.strip())


def recognise(relpath: str) -> tuple[str, dict] | tuple[None, str]:
    """(shape, fields) for a path relative to the extracted folder, or (None, why)."""
    tail = "/".join(relpath.split("/")[-2:])  # the file and the folder it came in (zip or Moodle)
    for shape, pattern in SHAPES:
        for candidate in (os.path.basename(relpath), tail):
            m = pattern.match(candidate)
            if m:
                fields = m.groupdict()
                fields["student_id"] = student_id(fields["student_id"])
                if not STUDENT_ID.match(fields["student_id"]):
                    return None, f"the student id {fields['student_id']!r} ({shape}) has characters nbgrader cannot use"
                if fields.get("timestamp"):
                    d, t = fields["timestamp"][:10], fields["timestamp"][11:].replace("-", ":")
                    fields["timestamp"] = f"{d} {t}"
                return shape, fields
    return None, "its name fits no LMS's pattern (<student>_..._<assignment notebook>.ipynb)"


class LmsCollector(FileNameCollectorPlugin):
    def collect(self, submitted_file: str):
        if os.path.splitext(submitted_file)[1] not in self.valid_ext:
            return None
        rel = submitted_file.replace(os.sep, "/")
        rel = rel.split("/extracted/", 1)[-1] if "/extracted/" in rel else os.path.basename(rel)
        shape, fields = recognise(rel)
        if shape is None:
            self.log.warning("zip_collect: skipped %s: %s", rel, fields)
            return None
        self.log.info("zip_collect: %s is %s's (%s download)", rel, fields["student_id"], shape)
        return {k: v for k, v in fields.items() if v is not None}
