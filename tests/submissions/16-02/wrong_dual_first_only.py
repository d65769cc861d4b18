"""Only the first primal is made dual; the other inputs are passed plain, so their tangents are lost."""
from course.grading.class_run.submissions import edited

EXPECT = {"dual_jvp": "fail"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]",
    "duals = [fwAD.make_dual(primals[0], tangents[0])] + list(primals[1:])"))}
