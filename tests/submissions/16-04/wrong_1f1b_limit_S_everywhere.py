"""1F1B that lets every stage keep S micro-batches in flight, instead of S - s on stage s."""
from course.grading.class_run.submissions import edited

EXPECT = {'schedule': 'fail'}
CELLS = {
    'schedule_impl': edited("16-04", 'schedule_impl', ('f_ready = f_ready and f - b < S - s', 'f_ready = f_ready and f - b < S')),
}
