"""Held-out round 13 (issue 39), written after the count (phase 2, to keep the sharpened check honest):
will_oom "allocates" the cached block that serves the request in step 1 by setting its state to
'active_allocated' in the snapshot it was given. Breaks: "Both functions only read segments: they leave the
snapshot they are given unchanged" (the old check only asked for a request no cached block serves)."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    '''        if s["segment_type"] == pool and any(b["state"] == "inactive" and b["size"] >= size for b in s["blocks"]):
            return False                                    # 1. served from the cache''',
    '''        for b in s["blocks"]:
            if s["segment_type"] == pool and b["state"] == "inactive" and b["size"] >= size:
                b["state"] = "active_allocated"             # 1. served from the cache
                return False'''))}
EXPECT = {"oom_diagnosis": "fail"}
