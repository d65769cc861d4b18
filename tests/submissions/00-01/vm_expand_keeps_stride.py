"""view_meta: expand grows a size-1 dimension but keeps its old stride instead of 0, so the copies would walk into neighbouring memory. Breaks 'expand gives size-1 dimensions stride 0'."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'fail', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ('                new_stride.append(0)\n            else:',
     '                new_stride.append(st)\n            else:'))}
