"""op_logger: overrides __exit__ to 'return self' (as if it were __enter__), so a truthy value tells Python
the exception was handled: an error raised inside the with block never reaches the caller. Breaks 'an exception
raised inside the block goes through to the caller'."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {
    "op_logger_impl": edited("00-01", "op_logger_impl",
    (('\n'
      '    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n'),
     ('\n'
      '    def __exit__(self, exc_type, exc, tb):\n'
      '        super().__exit__(exc_type, exc, tb)\n'
      '        return self\n'
      '\n'
      '    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n'))),
}
