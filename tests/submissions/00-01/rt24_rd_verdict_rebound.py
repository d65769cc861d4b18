"""result_dtype from torch.result_type called past the probe's TorchFunctionMode, with the judge's
``Recorder.verdict`` rebound through sys.modules so that the op log's finding is never reported (red team 23 left
this open: 7/7 before the worker's seal)."""
CELLS = {"result_dtype_impl": '''import sys as _sys
_w = _sys.modules.get("course.judge.worker")
if _w is not None:
    _w.Recorder.verdict = lambda self, threads=True: None


def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    with torch._C.DisableTorchFunction():
        return torch.result_type(a, b)
'''}
EXPECT = {"result_dtype": "fail"}
