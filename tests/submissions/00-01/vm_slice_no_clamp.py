"""view_meta: a slice counts ceil((stop - start) / step) elements without clamping stop to the size first, so 9:12 on a dimension of 4 gives 3 elements. Breaks the slice clause (Python's clamping)."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'fail', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ('stop = min(max(stop, start), size)',
     'stop = max(stop, start)'))}
