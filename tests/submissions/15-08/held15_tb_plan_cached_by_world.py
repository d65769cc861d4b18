"""Wrong: "`tree_broadcast(x, src)` ... a broadcast from any root" (every call, whatever `src`). This version
works out each rank's parent and children once and keeps them in a module dict keyed by the world size only:
the first call's root is baked in, so a second call in the same job with another `src` sends from the wrong
rank (the old root's data, or ranks waiting for messages nobody sends)."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:\n"
     "    ### BEGIN SOLUTION\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"
     "    v = (rank - src) % world\n"
     "    mask = 1\n"
     "    while mask < world:\n"
     "        if v & mask:\n"
     "            dist.recv(x, (v - mask + src) % world)\n"
     "            break\n"
     "        mask <<= 1\n"
     "    mask >>= 1\n"
     "    while mask > 0:\n"
     "        if v + mask < world:\n"
     "            dist.send(x, (v + mask + src) % world)\n"
     "        mask >>= 1\n"
     "    return x\n",
     "_TREE_PLAN = {}\n\n\n"
     "def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:\n"
     "    ### BEGIN SOLUTION\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"
     "    if world not in _TREE_PLAN:  # the tree depends only on the world size ... (it does not)\n"
     "        v = (rank - src) % world\n"
     "        parent, mask = None, 1\n"
     "        while mask < world:\n"
     "            if v & mask:\n"
     "                parent = (v - mask + src) % world\n"
     "                break\n"
     "            mask <<= 1\n"
     "        mask >>= 1\n"
     "        children = []\n"
     "        while mask > 0:\n"
     "            if v + mask < world:\n"
     "                children.append((v + mask + src) % world)\n"
     "            mask >>= 1\n"
     "        _TREE_PLAN[world] = (parent, children)\n"
     "    parent, children = _TREE_PLAN[world]\n"
     "    if parent is not None:\n"
     "        dist.recv(x, parent)\n"
     "    for child in children:\n"
     "        dist.send(x, child)\n"
     "    return x\n"))}
