"""Wrong (third truly blind round for 15-08, issue #19): tree_broadcast receives into a fresh buffer and then
points x at it with x.set_(buf). x holds the root's values and is returned, but the memory x had before the
call is never written, so any other view of it (the parameter behind p.data in the notebook's DDP demo) keeps
its old values: not "overwrite x in place".

Caught by test_broadcast_fills_x_in_place: the probe records whether an argument's data_ptr changed during the
call.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "fail", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"tree_broadcast_impl": edited("15-08", "tree_broadcast_impl",
    ("            dist.recv(x, (v - mask + src) % world)\n",
     "            buf = torch.empty_like(x)\n            dist.recv(buf, (v - mask + src) % world)\n"
     "            x.set_(buf)\n"))}
