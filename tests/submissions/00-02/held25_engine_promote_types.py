"""Held-out round 25: the binary operations promote both operands explicitly with
`torch.promote_types(a.dtype, b.dtype)` before computing, "to make mixed dtypes safe". That ignores torch's rule
that a 0-dim tensor does not promote a dimensioned one of the same kind: a 0-dim float64 `Value` times a `(3,)`
float32 `Value` gives float64 `.data` where torch gives float32. The text: "Each returns a new `Value` whose
`.data` equals torch's result for the same tensors" (gradients still get each leaf's dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        a, b = self.data, other.data\n"
     "        return Value(a + b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(g, b)))\n",
     "        a, b = self.data, other.data\n"
     "        dt = torch.promote_types(a.dtype, b.dtype)\n"
     "        return Value(a.to(dt) + b.to(dt), (self, other),\n"
     "                     lambda g: (self._unbroadcast(g, a), self._unbroadcast(g, b)))\n"),
    ("        a, b = self.data, other.data\n"
     "        return Value(a * b, (self, other),\n",
     "        a, b = self.data, other.data\n"
     "        dt = torch.promote_types(a.dtype, b.dtype)\n"
     "        return Value(a.to(dt) * b.to(dt), (self, other),\n"))}
