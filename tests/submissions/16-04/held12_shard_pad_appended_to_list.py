# Pads by appending a zero tensor to the caller's list: the piece is right, but the caller's list
# grows by one tensor ("leave the inputs unchanged": the list is an input too).
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"
    "    k = -(-flat.numel() // world)\n"
    "    padded = flat.new_zeros(world * k)\n"
    "    padded[: flat.numel()] = flat\n"
    "    return padded[rank * k:(rank + 1) * k].clone()\n",
    "    n = sum(t.numel() for t in tensors)\n"
    "    k = -(-n // world)\n"
    "    if world * k > n:\n"
    "        tensors.append(tensors[0].new_zeros(world * k - n))\n"
    "    padded = torch.cat([t.reshape(-1) for t in tensors])\n"
    "    return padded[rank * k:(rank + 1) * k].clone()\n"))}
