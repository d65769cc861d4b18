"""Round 25: result_dtype memoised with functools.lru_cache (a good student's speed-up). The cache keys on
argument equality, and True == 1 == 1.0 hash alike, so result_dtype(t, 1) after result_dtype(t, True) on the
same bool tensor answers torch.bool instead of torch.int64, and a float answered under one default dtype is
kept after torch.set_default_dtype changes it. Breaks "A Python `bool` counts as torch.bool, an int as
torch.int64, a float as torch.get_default_dtype()" and "The answer must equal torch.result_type(a, b) for every
pair, with the default dtype float32 or float64": wrong on the second of two calls with the same tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''def result_dtype(a, b):''',
    '''import functools


@functools.lru_cache(maxsize=None)
def result_dtype(a, b):'''))}
