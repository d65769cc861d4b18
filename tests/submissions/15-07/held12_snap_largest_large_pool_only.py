"""Held-out round 12 (summarize_snapshot: "largest_free_block (largest "inactive" block, 0 if none)"): only the
large pool's holes are looked at ("the biggest hole a big request could use"), so a snapshot whose biggest
inactive block is a free 2 MiB small segment reports a smaller block, and fragmentation follows it."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "fail"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "    largest = max(free_sizes, default=0)",
    '    largest = max((b["size"] for s in segments if s["segment_type"] == "large" for b in s["blocks"]\n'
    '                   if b["state"] == "inactive"), default=0)  # the biggest hole a big request could use',
))}
