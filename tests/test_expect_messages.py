"""The judge's comparison messages say what differs in terms a student can act on (course/judge/expect.py)."""
import pytest
import torch

from course.judge.expect import expect_close


def _message(got, expected, **tol):
    with pytest.raises(BaseException) as info:
        expect_close(got, expected, "f(x)", **tol)
    return str(info.value)


def test_values_equal_at_six_digits_are_shown_until_they_differ():
    """a float32 result against a float64 expectation: the two numbers printed differ, and the dtypes are named"""
    e = torch.tensor([2.2004123456789], dtype=torch.float64)
    msg = _message(e.float(), e, atol=1e-12, rtol=1e-12)
    shown = msg.split("expected ", 1)[1]
    exp_txt, got_txt = shown.split(", got ")
    assert exp_txt.strip() != got_txt.split(" ")[0].strip(), msg
    assert "torch.float32" in msg and "torch.float64" in msg, msg


def test_plain_difference_keeps_the_short_form():
    e = torch.tensor([2.0, 3.0], dtype=torch.float64)
    msg = _message(e + torch.tensor([0.0, 1.0], dtype=torch.float64), e)
    assert "expected 3, got 4" in msg and "dtype" not in msg and "float" not in msg, msg


class _Item:
    """What pytest_plugin's report hook reads of a test item."""

    def __init__(self, results_json):
        self.nodeid, self.location, self.keywords = "tests/x/test_y.py::test_z", ("tests/x/test_y.py", 3, "test_z"), {}
        self._report_sections, self.user_properties = [("call", "stdout", "printed\n")], []
        self.config = type("Config", (), {"getoption": staticmethod(lambda name: results_json)})()


def _report(exc, results_json="/tmp/r.json"):
    from _pytest.runner import CallInfo

    from course.judge import pytest_plugin

    def boom():
        raise exc
    return pytest_plugin.pytest_runtest_makereport(_Item(results_json), CallInfo.from_call(boom, "call"))


def test_a_grading_session_reports_a_verdict_by_its_message_and_a_broken_check_by_its_traceback():
    """Issue 40: in a grading session a failed check's report is its message (pytest's long traceback parsed the
    source of every frame, and nothing read it); a check that itself breaks, or a run by hand, keeps pytest's own."""
    from course.judge.adapter import StudentFailure
    from course.judge.expect import CheckFailed
    for exc in (CheckFailed("f(x): expected 1, got 2"), StudentFailure("f raised ValueError"), AssertionError("a")):
        rep = _report(exc)
        assert rep is not None and rep.failed and rep.longrepr == f"{type(exc).__name__}: {exc}", rep
        assert rep.sections == [("Captured stdout call", "printed\n")]
    assert _report(pytest.fail.Exception("no")) is not None
    assert _report(KeyError("a check's own bug")) is None  # pytest formats it in full
    assert _report(pytest.skip.Exception("later")) is None
    assert _report(CheckFailed("x"), results_json=None) is None  # by hand: the whole traceback
