"""Adam with L2 regularisation (weight decay added to the gradient) instead of AdamW's decoupled decay."""
from course.grading.class_run.submissions import edited

EXPECT = {'zero1': 'fail', 'zero2': 'fail'}
CELLS = {
    'zero1_impl': edited("16-04", 'zero1_impl', ('    p.mul_(1 - lr * weight_decay)\n    m.lerp_(g, 1 - b1)', '    g = g + weight_decay * p\n    m.lerp_(g, 1 - b1)')),
}
