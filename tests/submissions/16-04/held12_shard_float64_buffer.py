# Builds the padded buffer in float64 "to hold any value" and casts the piece back: int64 values
# beyond 2**53 come back rounded (the piece must hold the inputs' elements, in their dtype).
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    padded = flat.new_zeros(world * k)\n"
    "    padded[: flat.numel()] = flat\n"
    "    return padded[rank * k:(rank + 1) * k].clone()\n",
    "    padded = torch.zeros(world * k, dtype=torch.float64, device=flat.device)\n"
    "    padded[: flat.numel()] = flat\n"
    "    return padded[rank * k:(rank + 1) * k].to(flat.dtype)\n"))}
