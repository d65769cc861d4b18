# Correct, written differently: F.pad and narrow for flatten_shard; split sizes for unflatten_shards.
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass"}
CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"
    "    k = -(-flat.numel() // world)\n"
    "    padded = flat.new_zeros(world * k)\n"
    "    padded[: flat.numel()] = flat\n"
    "    return padded[rank * k:(rank + 1) * k].clone()\n",
    "    n = sum(t.numel() for t in tensors)\n"
    "    k = (n + world - 1) // world\n"
    "    flat = torch.cat([t.flatten() for t in tensors])\n"
    "    padded = torch.nn.functional.pad(flat, (0, world * k - n))\n"
    "    return padded.narrow(0, rank * k, k).clone()\n"), (
    "    flat = torch.cat([s.reshape(-1) for s in shards])\n"
    "    out, start = [], 0\n"
    "    for shape in shapes:\n"
    "        size = math.prod(shape)\n"
    "        out.append(flat[start:start + size].reshape(shape).clone())\n"
    "        start += size\n"
    "    return out\n",
    "    sizes = [torch.Size(s).numel() for s in shapes]\n"
    "    flat = torch.cat(list(shards))\n"
    "    pieces = flat.split(sizes + [flat.numel() - sum(sizes)])[:-1]\n"
    "    return [p.reshape(s).contiguous().clone() for p, s in zip(pieces, shapes)]\n"))}
