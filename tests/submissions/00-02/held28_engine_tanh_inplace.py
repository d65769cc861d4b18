"""Wrong (held-out round 28): tanh's backward rule computes 1 - t*t in place on the saved output t (to save an
allocation), so it overwrites the tanh Value's own `.data`. Violates "Each returns a new Value whose .data equals
torch's result" (after backward it holds 1 - tanh^2) and "A second backward() adds to the gradients already there,
as torch does" (the second backward over the same graph uses the overwritten t). Goes wrong on
a = Value(randn(3)); y = a.tanh(); out = y.sum(): out.backward() twice gives a.grad = (1-t^2) + (1-(1-t^2)^2)
instead of 2(1-t^2); also any downstream rule that reads y.data (y * w: w's gradient) in the second backward."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        return Value(t, (self,), lambda g: (g * (1 - t * t),))",
     "        return Value(t, (self,), lambda g: (g * t.mul_(t).neg_().add_(1),))"),
)}
