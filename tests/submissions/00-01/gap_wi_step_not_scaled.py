"""Known-wrong windows (gap round): the windows' dimension gets stride `step`, as if the last dimension
had stride 1; right for contiguous x, wrong for a transposed, sliced or expanded one ("x ... in any
layout")."""
from course.grading.class_run.submissions import edited

CELLS = {"windows_impl": edited("00-01", "windows_impl", ("(step * st, st)", "(step, st)"))}
EXPECT = {"windows": "fail"}
