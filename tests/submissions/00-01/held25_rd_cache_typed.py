"""Round 25: result_dtype memoised with functools.lru_cache(typed=True): True, 1 and 1.0 no longer share a
key, but the answer for a Python float or complex is cached across torch.set_default_dtype. Breaks "a float as
torch.get_default_dtype() and a complex as the complex type of that default" (read at call time): after
result_dtype(t, 0.5) under float32, the same call with the same int tensor under float64 still answers float32."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''def result_dtype(a, b):''',
    '''import functools


@functools.lru_cache(maxsize=None, typed=True)
def result_dtype(a, b):'''))}
