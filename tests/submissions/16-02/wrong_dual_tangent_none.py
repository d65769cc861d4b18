"""Returns the unpacked tangent as it is: None when the output does not depend on the primals."""
from course.grading.class_run.submissions import edited

EXPECT = {"dual_jvp": "fail"}
CELLS = {"dual_jvp_impl": edited("16-02", "dual_jvp_impl", (
    "        if tangent is None:\n            tangent = torch.zeros_like(out)\n", ""))}
