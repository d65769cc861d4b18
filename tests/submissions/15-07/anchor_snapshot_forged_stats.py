"""Known-wrong summarize_snapshot that falsifies what the probe reports (issue 38, "a student's file is data"):
right on every snapshot the checks build, but on the live snapshot (called from the probe that reads
torch.cuda.memory_snapshot() and memory_stats() on the CUDA stand-in) it returns zeros and empties, in the
probe's own frame, the snapshot and the stats it read, so that the reported state agrees with the wrong
summary. The judge compared the summary with the stats the worker reported and summarized the segments the
worker reported; it now uses the snapshot and stats it scripted into the stand-in itself."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""\n',
     '    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""\n'
     '    import sys\n'
     '    caller = sys._getframe(2)\n'
     '    if caller.f_code.co_name == "summarize_live_gpu":\n'
     '        seen = caller.f_locals\n'
     '        for name in ("segs", "stats"):\n'
     '            if hasattr(seen.get(name), "clear"):\n'
     '                seen[name].clear()\n'
     '        return {"reserved": 0, "allocated": 0, "cached_free": 0, "largest_free_block": 0, "releasable": 0,\n'
     '                "fragmentation": 0.0}\n'))}
EXPECT = {"oom_diagnosis": "fail"}
