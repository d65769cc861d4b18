"""Held-out round 25: relu's value is computed as `a * (a > 0)`: at `-inf` that is `-inf * 0 = nan` where
`torch.relu(-inf)` is 0 (the gradient rule is the reference's). The text: "Each returns a new `Value` whose `.data`
equals torch's result for the same tensors"; wrong on any input holding `-inf`."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        return Value(a.clamp(min=0), (self,),",
     "        return Value(a * (a > 0), (self,),"))}
