"""Held-out round 22 (section 4, step 2, "cudaMalloc(segment_size); if the device has that much free memory,
done"): will_oom demands strictly more free device memory than the segment (need < device_free, and after
step 3 need < device_free + releasable), so a segment that exactly uses up the device's free memory is
reported as an OOM."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "fail"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "    if need <= device_free:\n",
    "    if need < device_free:\n",
), (
    "    return need > device_free + releasable",
    "    return need >= device_free + releasable",
))}
