"""Known-wrong summarize_snapshot (round 18): 'allocated' adds up each active block's "requested_size"
(what the tensor asked for) where the snapshot has one, instead of the block's "size". The text defines
allocated as the sum of "active_allocated" block sizes, and rule 1/5 say a block counts whole (a 1-byte
tensor holds 512 bytes): on a real torch.cuda.memory_snapshot() this undercounts memory_allocated."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ('    allocated = sum(b["size"] for s in segments for b in s["blocks"] if b["state"] == "active_allocated")\n',
     '    allocated = sum(b.get("requested_size", b["size"]) for s in segments for b in s["blocks"]\n'
     '                    if b["state"] == "active_allocated")  # the bytes tensors asked for\n'))}
EXPECT = {"oom_diagnosis": "fail"}
