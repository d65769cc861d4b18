"""Held-out round 14: sum's backward builds its ones with `torch.ones(a.shape, dtype=a.dtype)`, without
`device=`. On CPU the numbers are right; for a Value on any other device (the notebook's DEVICE on a GPU)
backward() raises, since a CPU tensor of a's shape meets the gradient on a's device. The text: "`out.backward()`
... adds d(out)/d(leaf) into `.grad` of every leaf ... with the leaf's shape and dtype" for the Value(data)
that "takes a tensor" (any device; device is not named in the text, so this is the text read as a whole)."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("return Value(a.sum(), (self,), lambda g: (g.expand(a.shape),))",
     "return Value(a.sum(), (self,), lambda g: (torch.ones(a.shape, dtype=a.dtype) * g,))"))}
