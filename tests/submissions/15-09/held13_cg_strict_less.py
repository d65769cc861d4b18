"""Held-out round 13 (check_gradients, "returns True if every entry satisfies |analytic - numeric| <= atol +
rtol·|numeric|"): the test is written with a strict "<". With atol=0 an entry where analytic and numeric are
both exactly 0 (any off-diagonal entry of an elementwise function) fails 0 < 0, so the verdict is False
where gradcheck(..., atol=0) says True."""
from course.grading.class_run.submissions import edited

EXPECT = {"gradcheck": "fail"}
BASE = "reference"
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    "(analytic - num).abs() <= atol", "(analytic - num).abs() < atol",
))}
