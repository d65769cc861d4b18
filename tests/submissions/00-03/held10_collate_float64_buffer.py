"""Held-out round 10: inputs is built in float64 (so that any padding_value fits) and cast to the sequences'
dtype at the end; int64 values past 2**53 (hashed ids, nanosecond timestamps) come back rounded. Breaks
"sample i in row i at positions 0 .. L_i - 1" with "the sequences' dtype"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)\n",
     "    inputs = torch.full((len(seqs), longest, *seqs[0].shape[1:]), float(padding_value), dtype=torch.float64)\n"),
    ('    return {"inputs": inputs,', '    return {"inputs": inputs.to(seqs[0].dtype),'))}
