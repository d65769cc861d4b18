"""OpLogger: the operator runs once for the count and a second time for the value returned, so an in-place
operator applies twice (backward adding into an existing .grad doubles it) and a random one draws twice. Breaks
'Run every call unchanged: the block's results and gradients must be the same as without the mode'. Caught by the
mm_ops case whose leaves start with a zero .grad."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass',
          'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {"op_logger_impl": edited(
    "00-01", "op_logger_impl",
    ("            self.flops[name] = self.flops.get(name, 0) + count\n        return out\n",
     "            self.flops[name] = self.flops.get(name, 0) + count\n        return func(*args, **(kwargs or {}))\n"))}
