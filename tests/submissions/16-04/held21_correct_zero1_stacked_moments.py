"""Unusual but correct (held-out round 21): zero1_step divides each gradient by W before one flat all_reduce,
keeps both moments of its shard in one (2, k) tensor of state with the step count as a Python int, updates with
out-of-place torch ops, gathers with dist.all_gather into a list and writes back through torch.split."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    rank, world = dist.get_rank(), dist.get_world_size()\n"
    "    grad = torch.cat([p.grad.reshape(-1) for p in params])\n"
    "    dist.all_reduce(grad)\n"
    "    grad /= world\n"
    "    k = -(-grad.numel() // world)\n"
    "    shard = flatten_shard([p.detach() for p in params], world, rank)\n"
    "    g = flatten_shard([grad], world, rank)\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n"
    "    full = shard.new_empty(world * k)\n"
    "    dist.all_gather_single(full, shard)\n"
    "    _write_back(params, full)\n",
    "    rank, world = dist.get_rank(), dist.get_world_size()\n"
    "    grad = torch.cat([(p.grad / world).flatten() for p in params])\n"
    "    dist.all_reduce(grad, op=dist.ReduceOp.SUM)\n"
    "    g = flatten_shard([grad], world, rank)\n"
    "    x = flatten_shard([p.detach() for p in params], world, rank)\n"
    "    if \"mv\" not in state:\n"
    "        state[\"mv\"], state[\"t\"] = x.new_zeros((2, x.numel())), 0\n"
    "    state[\"t\"] += 1\n"
    "    b1, b2 = betas\n"
    "    t = state[\"t\"]\n"
    "    state[\"mv\"][0] = b1 * state[\"mv\"][0] + (1 - b1) * g\n"
    "    state[\"mv\"][1] = b2 * state[\"mv\"][1] + (1 - b2) * g * g\n"
    "    x = x * (1 - lr * weight_decay)\n"
    "    denom = state[\"mv\"][1].sqrt() / math.sqrt(1 - b2 ** t) + eps\n"
    "    x = x - (lr / (1 - b1 ** t)) * state[\"mv\"][0] / denom\n"
    "    pieces = [torch.empty_like(x) for _ in range(world)]\n"
    "    dist.all_gather(pieces, x.contiguous())\n"
    "    flat = torch.cat(pieces)\n"
    "    with torch.no_grad():\n"
    "        for p, piece in zip(params, torch.split(flat[:sum(q.numel() for q in params)], [q.numel() for q in params])):\n"
    "            p.copy_(piece.reshape(p.shape))\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
