"""ZeRO-2 that builds its padded gradient buffer with torch.zeros(..., dtype=...) without device=: right on the
CPU, but with NCCL the buffer handed to the reduce-scatter lies on the CPU while the gradients are on
cuda:rank."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    flat_grad = torch.cat([flatten_shard([p.grad for p in params], world, r) for r in range(world)])\n",
    "    flat_grad = torch.zeros(world * -(-sum(p.numel() for p in params) // world), dtype=params[0].dtype)\n"
    "    flat_grad[: sum(p.numel() for p in params)] = torch.cat([p.grad.reshape(-1) for p in params])\n"))}
