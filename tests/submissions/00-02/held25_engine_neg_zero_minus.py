"""Held-out round 25: `-a` is built as `zeros - a` (a zero `Value` of a's dtype and device minus `a`). The
gradient is right, but IEEE subtraction gives `0 - 0 = +0` where negation gives `-0`: `(-Value(tensor([0.])))
.data` is `+0.` while `-torch.tensor([0.])` is `-0.` (and `-(-0.)` comes back as `+0.` where torch gives `+0.`
only by luck). The text: "Each returns a new `Value` whose `.data` equals torch's result for the same tensors";
wrong on any input holding +0."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        return Value(-self.data, (self,), lambda g: (-g,))\n",
     "        return Value(torch.zeros_like(self.data)) - self\n"))}
