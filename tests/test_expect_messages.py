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
