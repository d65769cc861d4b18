"""Held-out round 11: result_dtype memoizes its answers keyed by (dtype, has dimensions) for tensors and by
the Python type for numbers, so the first answer for (float32 tensor, float) is replayed after the default
dtype changes: result_dtype(int8 tensor, 0.5) keeps answering float32 under default float64. The text:
"a float [counts] as torch.get_default_dtype()" and the answer must equal torch.result_type(a, b) "with
the default dtype float32 or float64" (the default at the time of the call)."""
from course.grading.class_run.submissions import solution

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "fail",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"result_dtype_impl": solution("00-01", "result_dtype_impl") + '''


_result_dtype_uncached = result_dtype
_MEMO = {}


def result_dtype(a, b):
    """result_dtype with a memo: one computation per kind of operand pair."""
    key = tuple((v.dtype, v.dim() > 0) if isinstance(v, torch.Tensor) else type(v) for v in (a, b))
    if key not in _MEMO:
        _MEMO[key] = _result_dtype_uncached(a, b)
    return _MEMO[key]
'''}
