"""Held-out round 12, correct written unusually: ring_pass posts its send and receive together with
dist.batch_isend_irecv (P2POp(dist.isend, ...), P2POp(dist.irecv, ...)), and reduce_scatter_shards sums the
whole tensor with dist.all_reduce on a copy and returns a copy of this rank's tensor_split piece (the text lets
gloo's collectives do the shards' communication)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "shards": "pass"}
BASE = "reference"
CELLS = {
    "ring_pass_impl": edited("15-08", "ring_pass_impl", (
        "    if rank % 2 == 0:\n        dist.send(outgoing, right)\n        dist.recv(incoming, left)\n"
        "    else:\n        dist.recv(incoming, left)\n        dist.send(outgoing, right)\n",
        "    ops = [dist.P2POp(dist.isend, outgoing, right), dist.P2POp(dist.irecv, incoming, left)]\n"
        "    for req in dist.batch_isend_irecv(ops):\n        req.wait()\n",
    )),
    "shards_impl": edited("15-08", "shards_impl", (
        "    sizes = _shard_sizes(full.numel(), world)\n    longest = max(sizes)\n    inputs = []\n"
        "    for piece in torch.tensor_split(full, world):\n        padded = full.new_zeros(longest)\n"
        "        padded[: piece.numel()] = piece\n        inputs.append(padded)\n    out = full.new_empty(longest)\n"
        "    dist.reduce_scatter(out, inputs)\n    return out[: sizes[rank]]\n",
        "    total = torch.empty_like(full, memory_format=torch.contiguous_format).copy_(full)\n"
        "    dist.all_reduce(total)\n    return torch.tensor_split(total, world)[rank].clone()\n",
    )),
}
