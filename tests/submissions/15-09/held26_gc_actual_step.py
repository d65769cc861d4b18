"""numeric_jacobian divides each central difference by the step that was actually taken, ((x + eps) - (x - eps)) as
rounded in float64, instead of by 2*eps (the "Numerical Recipes" trick to cancel the rounding of x + eps). Breaks
"whose column j is the central difference (f(x + eps*e_j) - f(x - eps*e_j)) / (2*eps)": for an input element of
about 1e5 or 1e6 the rounded step differs from 2*eps by about 1e-5 relative (x = 1e6: 2.0000152e-6), so every entry
of that column is off by that much (fn = x * 1: 0.9999924 instead of 1.0000076, what gradcheck's own numerical
Jacobian gives); for inputs of order 1 the error is about 3e-11 relative."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """                jac[:, j] = diff / (2 * eps)
""",
    """                step = float(plus[k].view(-1)[j] - minus[k].view(-1)[j])  # the step really taken
                jac[:, j] = diff / step
"""))}
