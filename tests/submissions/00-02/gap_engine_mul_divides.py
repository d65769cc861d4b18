"""Known-wrong Value (gap round): the product rule written from the output, grad_a = g * out / a (= g * b),
which is 0 / 0 = nan wherever a factor is exactly zero."""
from course.grading.class_run.submissions import edited

CELLS = {"engine_impl": edited("00-02", "engine_impl",
    ("        return Value(a * b, (self, other),\n"
     "                     lambda g: (self._unbroadcast(g * b, a), self._unbroadcast(g * a, b)))",
     "        out = a * b\n"
     "        return Value(out, (self, other),\n"
     "                     lambda g: (self._unbroadcast(g * out / a, a), self._unbroadcast(g * out / b, b)))"))}
EXPECT = {"engine": "fail"}
