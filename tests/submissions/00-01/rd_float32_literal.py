"""result_dtype: a Python float is always float32 and a complex always complex64 (read from the demo's output), instead of following torch.get_default_dtype()."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'fail', 'stale_nodes': 'pass'}
CELLS = {
    'result_dtype_impl': edited("00-01", "result_dtype_impl",
    ('            tiers[0].append(torch.get_default_dtype())\n',
     '            tiers[0].append(torch.float32)\n'),
    ('            tiers[0].append(complex_of[torch.get_default_dtype()])\n',
     '            tiers[0].append(torch.complex64)\n')),
}
