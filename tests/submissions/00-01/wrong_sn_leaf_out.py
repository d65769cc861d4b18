"""stale_nodes: the early return tests out.requires_grad instead of out.grad_fn, so a leaf that requires grad (no
grad_fn) is walked from None and crashes with AttributeError. Breaks 'return [] when out has no grad_fn'. Caught
by the named case whose output is x itself."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass',
          'stale_nodes': 'fail', 'op_logger': 'pass'}
CELLS = {"stale_nodes_impl": edited(
    "00-01", "stale_nodes_impl",
    ("    todo = [out.grad_fn] if out.grad_fn is not None else []\n",
     "    if not out.requires_grad:\n        return []\n    todo = [out.grad_fn]\n"))}
