"""Held-out round 25 (issue 39), written as wrong, kept as defensible: summarize_snapshot computes `reserved`
as the sum of all block sizes instead of "sum of `total_size`" (Exercise 3). The two differ only on a snapshot
whose blocks do not cover their segment, and no snapshot the text describes is like that: section 2 has a
segment split into blocks that merge back into one, and torch.cuda.memory_snapshot() itself sums a segment's
total_size from its blocks. So every input the text allows gives the right answer: not counted as truly wrong,
and the checks need not reject it (no check builds a segment whose blocks fall short of its total_size)."""
from course.grading.class_run.submissions import edited

EXPECT = {"oom_diagnosis": "pass"}
BASE = "reference"
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    "    reserved = sum(s[\"total_size\"] for s in segments)\n",
    "    reserved = sum(b[\"size\"] for s in segments for b in s[\"blocks\"])\n",
))}
