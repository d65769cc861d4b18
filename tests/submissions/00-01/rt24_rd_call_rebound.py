"""result_dtype from torch.result_type called past the probe's TorchFunctionMode, with the judge's ``Worker.call`` replaced by one that runs the probe and
skips the op log's verdict (found through sys.modules)."""
CELLS = {"result_dtype_impl": '''import sys as _sys
_w = _sys.modules.get("course.judge.worker")
if _w is not None:
    def _call(self, module, probe, kwargs):
        self.recorder.reset()
        return getattr(self.probes[module], probe)(self.ns, **kwargs)
    _w.Worker.call = _call


def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    with torch._C.DisableTorchFunction():
        return torch.result_type(a, b)
'''}
EXPECT = {"result_dtype": "fail"}
