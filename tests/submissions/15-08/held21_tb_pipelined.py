"""Wrong: "Every rank except `src` receives exactly one message (the whole tensor)". This version
pipelines large tensors the way NCCL does: a tensor of 4096 elements or more travels down the tree in two
halves (two messages per edge), so every non-root rank receives two messages, and the root and inner
ranks send twice as many messages as the tree has edges below them."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    v = (rank - src) % world\n",
     "    v = (rank - src) % world\n"
     "    parts = list(x.view(-1).tensor_split(2)) if x.numel() >= 4096 else [x]  # pipeline big tensors\n"),
    ("            dist.recv(x, (v - mask + src) % world)\n",
     "            for part in parts:\n"
     "                dist.recv(part, (v - mask + src) % world)\n"),
    ("            dist.send(x, (v + mask + src) % world)\n",
     "            for part in parts:\n"
     "                dist.send(part, (v + mask + src) % world)\n"))}
