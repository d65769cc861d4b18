"""Held-out round 10: zero2_step makes its padded gradient buffer with torch.zeros(W*k, device=...) and no
dtype, so float64 gradients are rounded to float32 before the reduce-scatter; the text says params are of one
floating dtype (float32 or float64) and end equal to torch.optim.AdamW's step on the mean gradient."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "fail", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"zero2_impl": edited(
    "16-04", "zero2_impl",
    ("    flat_grad = torch.cat([flatten_shard([p.grad for p in params], world, r) for r in range(world)])\n"
     "    g = flat_grad.new_empty(flat_grad.numel() // world)\n",
     "    n = sum(p.numel() for p in params)\n"
     "    flat_grad = torch.zeros(world * -(-n // world), device=params[0].device)\n"
     "    flat_grad[:n] = torch.cat([p.grad.reshape(-1) for p in params])\n"
     "    g = flat_grad.new_empty(flat_grad.numel() // world)\n"),
    ("    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
     "    _adamw_shard(shard, g.to(shard.dtype), state, lr, betas, eps, weight_decay)\n"))}
