"""Wrong: "`tree_broadcast(x, src)` ... Overwrite `x` in place with the root's values on every rank".
This version works out its place in the tree (parent and children) once per world size and keeps it in a
module-level dict for the next call, as a DDP start-up that broadcasts every parameter would want; the
key forgets `src`, so a second call in the same process with another root uses the first call's tree."""

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": (
    "_TREE_PLAN = {}\n\n\n"
    "def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:\n"
    "    rank, world = dist.get_rank(), dist.get_world_size()\n"
    "    if world not in _TREE_PLAN:  # the tree only depends on the world size\n"
    "        v = (rank - src) % world\n"
    "        parent, children = None, []\n"
    "        mask = 1\n"
    "        while mask < world:\n"
    "            if v & mask:\n"
    "                parent = (v - mask + src) % world\n"
    "                break\n"
    "            mask <<= 1\n"
    "        mask >>= 1\n"
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
    "    return x\n")}
