"""Hidden check for every task of 15-05: the skeleton's def and class lines are kept (course.judge.generic.signatures)."""
import pytest

from course.judge.generic import signatures

ASSIGNMENT = "15-05"


@pytest.fixture(scope="module")  # no inputs: the signatures, the same under every seed
def described(student):
    return student.call("signatures_of", names=signatures.request(ASSIGNMENT))


@pytest.mark.penalty  # keeping the skeleton's lines earns nothing; changing them costs this check's share
@pytest.mark.parametrize("task", [pytest.param(t, marks=pytest.mark.task(t)) for t in signatures.tasks(ASSIGNMENT)])
def test_signature(described, task):
    """Keeps the skeleton's def and class lines: parameter names, order and defaults."""
    signatures.check(ASSIGNMENT, task, described)
