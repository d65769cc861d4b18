"""Held-out round 12 (tree_broadcast, "on every other rank arbitrary contents" and "Overwrite x in place with the
root's values"): a receiving rank gets the message into a buffer, then clears x with x.mul_(0) and adds the
buffer. Arbitrary contents may be NaN or inf (torch.empty gives whatever memory held), and NaN * 0 is NaN, so
those entries stay NaN instead of taking the root's values."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
BASE = "reference"
CELLS = {"tree_broadcast_impl": edited("15-08", "tree_broadcast_impl", (
    "            dist.recv(x, (v - mask + src) % world)\n",
    "            buf = torch.empty_like(x)\n            dist.recv(buf, (v - mask + src) % world)\n"
    "            x.mul_(0).add_(buf)\n",
))}
