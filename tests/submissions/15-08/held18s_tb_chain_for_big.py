"""Wrong (second pass, not counted): "Along the messages, no rank is more than ⌈log2 N⌉ hops from `src` (a chain
0 → 1 → 2 → 3 does not qualify)." For a tensor of more than 4096 elements this version passes x down a chain
(src → src+1 → ...: "a pipelined chain is bandwidth-optimal for big tensors"); smaller tensors go down the
binomial tree. Each rank still receives one message and sends at most one."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    v = (rank - src) % world\n",
     "    v = (rank - src) % world\n"
     "    if x.numel() > 4096:  # big tensors: a chain, bandwidth-optimal when pipelined\n"
     "        if v > 0:\n"
     "            dist.recv(x, (rank - 1) % world)\n"
     "        if v < world - 1:\n"
     "            dist.send(x, (rank + 1) % world)\n"
     "        return x\n"))}
