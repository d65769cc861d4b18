"""Leaves out Adam's bias correction of the second moment."""
from course.grading.class_run.submissions import edited

EXPECT = {'zero1': 'fail', 'zero2': 'fail'}
CELLS = {
    'zero1_impl': edited("16-04", 'zero1_impl', ('denom = (v.sqrt() / math.sqrt(1 - b2 ** t)).add_(eps)', 'denom = v.sqrt().add_(eps)')),
}
