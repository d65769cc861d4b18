"""Wrong: "for p in [0, 1), draws u ... once ... With p == 0 it draws nothing". This version compares p
with 0 under a float tolerance (p < 1e-6 counts as zero): for a tiny positive p such as 1e-9 it draws
nothing, so the generator's state is not advanced and the next draw from it differs from the unfused
composition's (which draws u for every p > 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl", ("    if p == 0:\n", "    if abs(p) < 1e-6:  # float-safe zero test\n"))}
