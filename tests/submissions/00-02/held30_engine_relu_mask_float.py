"""Wrong (held-out round 30): relu's rule builds its 0/1 mask with .float(), so the gradient it sends back
is float32 whatever the dtype of the relu's input; when that input is a float16 or bfloat16 leaf, the
leaf's .grad is float32. Violates "adds d(out)/d(leaf) into .grad ... with the leaf's shape, dtype and
device" (float64 and float32 are unaffected: float64 * float32 stays float64).
Goes wrong on: x = Value(torch.randn(4, dtype=torch.float16)); x.relu().sum().backward(): x.grad.dtype
is torch.float32 (torch: torch.float16)."""
from course.grading.class_run.submissions import edited

EXPECT = {'engine': 'fail'}
CELLS = {"engine_impl": edited("00-02", "engine_impl",
    ("lambda g: (g * (a > 0).to(g.dtype),)", "lambda g: (g * (a > 0).float(),)"),
)}
