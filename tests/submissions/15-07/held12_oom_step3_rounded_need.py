"""Held-out round 12 (step 3, "release every fully free cached segment ... and retry cudaMalloc once"): the
retry compares the rounded request, not the segment that cudaMalloc would be asked for (step 2's size),
with device_free + releasable. A 5 MiB request needs a 20 MiB segment in both steps."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "fail"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "return need > device_free + releasable",
    "return size > device_free + releasable",
))}
