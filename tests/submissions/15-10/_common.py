"""Helpers for the 15-10 specs: the reference solution cells, with small textual edits."""
from course.grading.class_run import submissions


def reference_cell(grade_id: str) -> str:
    return submissions.solution("15-10", grade_id)


def edited(grade_id: str, old: str, new: str) -> str:
    return submissions.edited("15-10", grade_id, (old, new))
