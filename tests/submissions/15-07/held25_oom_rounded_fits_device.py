"""Held-out round 25 (section 4, step 2: "otherwise `cudaMalloc(segment_size)`; if the device has that much
free memory, done"): will_oom returns False as soon as the device has room for the rounded request, not for
the segment it needs. Wrong for a 3 MiB request with 5 MiB device free and nothing cached: the 20 MiB
segment does not fit, so it runs out."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "fail"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "    need = segment_size(nbytes)\n"
    "    if need <= device_free:\n",
    "    need = segment_size(nbytes)\n"
    "    if size <= device_free:\n",
))}
