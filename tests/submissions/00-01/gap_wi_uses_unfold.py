"""Known-wrong windows (gap round): calls x.unfold for every case unfold accepts and as_strided only for
the empty result ("Write windows(x, size, step) with as_strided (not unfold)")."""
from course.grading.class_run.submissions import edited

CELLS = {"windows_impl": edited("00-01", "windows_impl",
    ("    return x.as_strided(", "    if count:\n        return x.unfold(-1, size, step)\n    return x.as_strided("))}
EXPECT = {"windows": "fail"}
