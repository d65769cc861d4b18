"""Wrong: "launch_gelu_dropout ... returns a new tensor of x's shape and dtype". To save an allocation
per call, this launcher keeps one output buffer per (shape, dtype, device) in a module-level cache and
returns it: a second call with an input of the same shape overwrites the result the first call
returned (and both results are the same tensor)."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": "_OUT_CACHE = {}\n\n\n" + edited(
    "16-01", "triton_impl",
    ("    out = torch.empty_like(x)\n",
     "    key = (tuple(x.shape), x.dtype, x.device)\n"
     "    if key not in _OUT_CACHE:\n"
     "        _OUT_CACHE[key] = torch.empty_like(x)\n"
     "    out = _OUT_CACHE[key]\n"))}
