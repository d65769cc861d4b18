"""Held-out round 9: summarize_snapshot's largest_free_block adds up runs of adjacent 'inactive'
blocks in a segment (the hole they would make once merged) instead of taking the largest block. The text:
largest_free_block is the largest 'inactive' block, and fragmentation uses it."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "fail", "cuda_timing": "pass"}
CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    free_sizes = [b["size"] for s in segments for b in s["blocks"] if b["state"] == "inactive"]\n    cached_free = sum(free_sizes)\n    largest = max(free_sizes, default=0)',
     '    free_sizes = [b["size"] for s in segments for b in s["blocks"] if b["state"] == "inactive"]\n    cached_free = sum(free_sizes)\n    runs = []\n    for s in segments:\n        run = 0\n        for b in s["blocks"]:\n            run = run + b["size"] if b["state"] == "inactive" else 0\n            runs.append(run)\n    largest = max(runs, default=0)'))}
