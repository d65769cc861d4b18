"""numeric_jacobian's default step is eps=1e-4 ("more robust than 1e-6"), not the eps=1e-6 the text gives; check
_gradients passes its own eps explicitly, so its verdicts are unchanged. numeric_jacobian(fn, inputs) then differs
from the central difference at 1e-6 by the eps**2 term (about 1e-9 relative for exp)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    "def numeric_jacobian(fn, inputs, eps=1e-6):", "def numeric_jacobian(fn, inputs, eps=1e-4):"))}
