"""Held-out round 25 (section 4, step 3: "release **every fully free cached segment** (what `empty_cache`
would release, both pools) and retry `cudaMalloc` once"): step 3 only counts fully free segments of the
OTHER pool, reasoning that the request's own pool was searched in step 1. But a fully free segment of the
request's pool that is too small is still released. Wrong for a 30 MiB request with 15 MiB device free and
one fully free 20 MiB large segment: 30 <= 15 + 20, no OOM; this answer says OOM."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "fail"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "    releasable = summarize_snapshot(segments)[\"releasable\"]\n",
    "    releasable = sum(s[\"total_size\"] for s in segments       # own pool: searched in step 1 already\n"
    "                     if s[\"segment_type\"] != pool and all(b[\"state\"] == \"inactive\" for b in s[\"blocks\"]))\n",
))}
