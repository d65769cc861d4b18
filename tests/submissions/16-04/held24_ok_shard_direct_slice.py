"""Correct but unusual (held-out round 24): flatten_shard never builds the whole padded buffer; it allocates this
rank's k elements with new_zeros and copies in only the parts of each tensor (read with reshape(-1)) that fall into
[rank*k, (rank+1)*k). unflatten_shards splits the concatenated shards with Tensor.split and clones each piece
contiguously. bubble_fraction counts the idle slots and divides them by S*T (not 1 - busy/(S*T): the same fraction,
rounded once instead of twice)."""
from course.grading.class_run.submissions import edited

CELLS = {
    "shard_impl": edited("16-04", "shard_impl", (
        "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"
        "    k = -(-flat.numel() // world)\n"
        "    padded = flat.new_zeros(world * k)\n"
        "    padded[: flat.numel()] = flat\n"
        "    return padded[rank * k:(rank + 1) * k].clone()\n",
        "    n = sum(t.numel() for t in tensors)\n"
        "    k = (n + world - 1) // world\n"
        "    lo, hi = rank * k, (rank + 1) * k\n"
        "    out = tensors[0].new_zeros(k)\n"
        "    pos = 0\n"
        "    for t in tensors:\n"
        "        a, b = max(lo, pos), min(hi, pos + t.numel())\n"
        "        if a < b:\n"
        "            out[a - lo:b - lo] = t.reshape(-1)[a - pos:b - pos]\n"
        "        pos += t.numel()\n"
        "    return out\n"), (
        "    flat = torch.cat([s.reshape(-1) for s in shards])\n"
        "    out, start = [], 0\n"
        "    for shape in shapes:\n"
        "        size = math.prod(shape)\n"
        "        out.append(flat[start:start + size].reshape(shape).clone())\n"
        "        start += size\n"
        "    return out\n",
        "    flat = torch.cat(list(shards))\n"
        "    sizes = [math.prod(s) for s in shapes]\n"
        "    pieces = flat[:sum(sizes)].split(sizes)\n"
        "    return [p.reshape(s).clone(memory_format=torch.contiguous_format) for p, s in zip(pieces, shapes)]\n")),
    "schedule_impl": edited("16-04", "schedule_impl", (
        "    busy = len({(t, s) for t, s, _, _ in schedule})\n"
        "    return 1.0 - busy / (S * T)\n",
        "    idle = S * T - len({(op[0], op[1]) for op in schedule})\n"
        "    return idle / (S * T)\n")),
}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
