"""Wrong (held-out round 8): view_meta clamps a slice's stop into [0, size] but not to at least start, so a
slice whose stop lies before its start (t[3:1], or start=-1, stop=0) gets a negative size instead of 0.
Breaks "keeps ceil((stop - start) / step) elements, after Python's clamping of start and stop" and "the result
must equal what PyTorch's own operation gives"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    "        stop = min(max(stop, start), size)\n", "        stop = min(max(stop, 0), size)\n"))}
