"""view_meta: select adds index * stride to the offset without first wrapping a negative index, so select(0, -1) points before the tensor. Breaks 'negative indices count from the end'."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'fail', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ('offset += (i % shape[d]) * stride[d]',
     'offset += i * stride[d]'))}
