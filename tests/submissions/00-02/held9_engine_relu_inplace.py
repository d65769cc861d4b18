"""Held-out round 9: relu clamps its operand's tensor in place (self.data.clamp_(min=0)) to save a copy,
so after a.relu() the Value a itself holds relu(a) and every later use of a (a * b, a.exp(), a second
relu, its gradient mask) sees the clamped numbers; the text says each operation returns a *new* Value
whose .data equals torch's result for the same tensors."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("return Value(a.clamp(min=0), (self,), lambda g: (g * (a > 0).to(g.dtype),))",
     "mask = a > 0\n        return Value(a.clamp_(min=0), (self,), lambda g: (g * mask.to(g.dtype),))"))}
