"""Held-out round 27 (section 4, step 2: "otherwise `cudaMalloc(segment_size)`; if the device has that much
free memory, done", with byte counts that are ints): will_oom compares the segment it needs with device_free
(and, in step 3, with device_free + releasable) in float MiB. Exact below 2**53 bytes, wrong above: a 2**70-byte
request with 2**70 - 512 bytes free on the device and nothing cached runs out (the segment is 512 bytes too
big), but (2**70 - 512) / MiB rounds to 2**50 = 2**70 / MiB, so it answers False."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "fail"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "    if need <= device_free:\n",
    "    if need / MiB <= device_free / MiB:                  # compare in MiB\n",
), (
    "    return need > device_free + releasable",
    "    return need / MiB > (device_free + releasable) / MiB",
))}
