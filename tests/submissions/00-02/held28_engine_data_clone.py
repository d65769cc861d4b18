"""Wrong (held-out round 28): `Value(data)` stores a copy of the tensor (`data.clone()`, a "defensive copy")
instead of the tensor itself. Violates "`Value(data)` takes a tensor and stores it as `.data`". Goes wrong on
t = torch.randn(3); v = Value(t): `v.data is t` is False, and a later in-place update of t (t.sub_(0.1 * v.grad),
a hand-written SGD step on the tensor the caller owns) is not seen by v, whose next expression still uses the old
values; every leaf also doubles its memory."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        self.data = data\n", "        self.data = data.clone()  # keep our own copy\n"),
)}
