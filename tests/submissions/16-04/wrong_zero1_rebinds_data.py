"""Writes the new values back with p.data = ...: the values are right, but the parameters now point at other
memory (an optimizer or a module holding views of them would not see the step)."""
from course.grading.class_run.submissions import edited

EXPECT = {'zero1': 'fail', 'zero2': 'fail'}
CELLS = {
    'zero1_impl': edited("16-04", 'zero1_impl', ('            p.copy_(full[start:start + p.numel()].view_as(p))', '            p.data = full[start:start + p.numel()].view_as(p).clone()')),
}
