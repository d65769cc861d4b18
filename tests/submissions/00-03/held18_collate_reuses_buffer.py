"""Held-out round 18: "inputs" is a preallocated buffer kept in a module-level dict per (B, L_max, features,
dtype, device) and refilled on every call (the data-loader habit of reusing pinned buffers). It shares no
memory with any sample, but two calls with the same shapes return the same tensor, and the second call
overwrites the first batch. Breaks "\"inputs\": a new tensor ..."."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("def pad_collate(", "_buffers = {}\n\n\ndef pad_collate("),
    ("    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)\n",
     "    key = (len(seqs), longest, tuple(seqs[0].shape[1:]), seqs[0].dtype, seqs[0].device)\n"
     "    if key not in _buffers:\n"
     "        _buffers[key] = seqs[0].new_empty((len(seqs), longest, *seqs[0].shape[1:]))\n"
     "    inputs = _buffers[key].fill_(padding_value)\n"))}
