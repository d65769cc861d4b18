# The mask is applied to q @ k^T and the scale afterwards: the same for any positive scale, but with
# scale=0 a removed pair's -inf * 0 is NaN and with a negative scale it becomes +inf and takes all the
# weight ("The scores are q @ k^T times scale (any number, zero or negative too)"; the mask then
# removes pairs from those scores).
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "    scores = (q @ k.transpose(-2, -1)) * scale\n",
    "    scores = q @ k.transpose(-2, -1)\n"), (
    "    dead = torch.isneginf(scores)",
    "    scores = scores * scale\n"
    "    dead = torch.isneginf(scores)"))}
