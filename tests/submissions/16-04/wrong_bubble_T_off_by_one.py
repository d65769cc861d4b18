"""bubble_fraction takes T as the largest time step, not one more than it."""
from course.grading.class_run.submissions import edited

EXPECT = {'schedule': 'fail'}
CELLS = {
    'schedule_impl': edited("16-04", 'schedule_impl', ('T = 1 + max(t for t, _, _, _ in schedule)', 'T = max(t for t, _, _, _ in schedule)')),
}
