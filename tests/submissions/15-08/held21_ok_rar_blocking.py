"""Correct, written in an unusual way: the ring all-reduce with the blocking `dist.send` / `dist.recv`
ordered even/odd (as in ring_pass: the text allows "send / recv ordered so that they cannot deadlock"),
the chunks cut as index ranges of a working copy with `narrow`, and each arriving chunk added with
`torch.add(..., out=...)`."""
EXPECT = {"ring_all_reduce": "pass"}
CELLS = {"ring_all_reduce_impl": (
    "def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:\n"
    "    rank, world = dist.get_rank(), dist.get_world_size()\n"
    "    n = x.numel()\n"
    "    work = torch.empty(n, dtype=x.dtype, device=x.device)\n"
    "    work.copy_(x.reshape(-1))\n"
    "    bounds = [0]\n"
    "    for r in range(world):\n"
    "        bounds.append(bounds[-1] + n // world + (1 if r < n % world else 0))\n"
    "    piece = lambda i: work.narrow(0, bounds[i], bounds[i + 1] - bounds[i])\n"
    "    right, left = (rank + 1) % world, (rank - 1) % world\n"
    "\n"
    "    def exchange(out_chunk, in_buf):\n"
    "        if rank % 2 == 0:\n"
    "            dist.send(out_chunk, right)\n"
    "            dist.recv(in_buf, left)\n"
    "        else:\n"
    "            dist.recv(in_buf, left)\n"
    "            dist.send(out_chunk, right)\n"
    "\n"
    "    for s in range(world - 1):\n"
    "        target = piece((rank - s - 1) % world)\n"
    "        arrived = torch.empty_like(target)\n"
    "        exchange(piece((rank - s) % world), arrived)\n"
    "        torch.add(target, arrived, out=target)\n"
    "    for s in range(world - 1):\n"
    "        exchange(piece((rank + 1 - s) % world), piece((rank - s) % world))\n"
    "    return work.reshape(x.shape)\n")}
