"""zip_collect's file names, one case per LMS shape (course.grading.lms_collect). The exchange test
(tests/test_exchange.py) runs the real `nbgrader zip_collect` on a Moodle-style download."""
import pytest

from course.grading.lms_collect import recognise

NB = "15-05_torchscript_export.ipynb"


@pytest.mark.parametrize("path,shape,student", [
    (f"submissions/smithjohn_12345_67890_{NB}", "Canvas", "smithjohn"),
    (f"submissions/j_smith_444_555_{NB}", "Canvas", "j_smith"),
    (f"submissions/smithjohn_LATE_12345_67890_{NB}", "Canvas", "smithjohn"),
    (f"all/Jane Doe_123456_assignsubmission_file_/{NB}", "Moodle", "Jane-Doe"),
    (f"all/Jane Doe_123456_assignsubmission_file_{NB}", "Moodle", "Jane-Doe"),
    (f"gradebook/15-05 Export_jsmith@uni.edu_attempt_2026-11-20-12-00-05_{NB}", "Blackboard", "jsmith@uni.edu"),
    (f"alice/{NB}", "zip of the notebook", "alice"),
    (f"x_y_z_{NB}", "generic", "x_y_z"),
])
def test_each_lms_shape_names_the_right_student(path, shape, student):
    got_shape, fields = recognise(path)
    assert (got_shape, fields["student_id"], fields["file_id"]) == (shape, student, NB)


def test_blackboard_timestamp_is_readable():
    _, fields = recognise(f"15-05_alice_attempt_2026-11-20-12-00-05_{NB}")
    assert fields["timestamp"] == "2026-11-20 12:00:05"


@pytest.mark.parametrize("path", ["notes.ipynb", "alice/homework.ipynb", f"al;ice_{NB}", f"..\\n_{NB}"])
def test_unknown_names_are_refused_with_a_reason(path):
    shape, why = recognise(path)
    assert shape is None and isinstance(why, str) and why
