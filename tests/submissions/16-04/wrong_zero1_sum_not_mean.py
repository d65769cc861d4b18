"""Steps on the sum of the ranks' gradients (forgets to divide by W). Adam is nearly blind to the scale of the
gradient, so only a large eps shows it."""
from course.grading.class_run.submissions import edited

EXPECT = {'zero1': 'fail'}
CELLS = {
    'zero1_impl': edited("16-04", 'zero1_impl', ('    dist.all_reduce(grad)\n    grad /= world\n', '    dist.all_reduce(grad)\n')),
}
