"""Known-wrong summarize_snapshot (round 18, second pass, not counted): 'allocated' adds up each segment's
"active_size" (a key a real torch.cuda.memory_snapshot() has), falling back to "allocated_size". Active
memory counts blocks pending free too; the text defines allocated as the sum of "active_allocated" block
sizes, so a snapshot with 'active_pending_free' blocks is overcounted."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    allocated = sum(b["size"] for s in segments for b in s["blocks"] if b["state"] == "active_allocated")\n',
     '    allocated = sum(s.get("active_size", s["allocated_size"]) for s in segments)\n'))}
EXPECT = {"oom_diagnosis": "fail"}
