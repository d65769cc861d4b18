"""Known-wrong zero1_step (held-out round 27): rank r owns the strided elements r, r + W, r + 2W, ... of the
padded flat parameter (round-robin) instead of the contiguous shard flatten_shard gives; the all-gathered pieces
are interleaved back, so the parameters come out right and state still holds 2·ceil(n/W) elements. The text says
"Keep moments for this rank's shard only (the shard of the flat parameter that flatten_shard(params, W, rank)
gives)". Input on which it goes wrong: any run on 2 or more ranks with n > 1: rank r's exp_avg and exp_avg_sq
belong to other elements than those of flatten_shard(params, W, r)."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    shard = flatten_shard([p.detach() for p in params], world, rank)\n"
    "    g = flatten_shard([grad], world, rank)\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n"
    "    full = shard.new_empty(world * k)\n"
    "    dist.all_gather_single(full, shard)\n",
    "    pflat = torch.cat([flatten_shard([p.detach() for p in params], world, r) for r in range(world)])\n"
    "    gflat = torch.cat([flatten_shard([grad], world, r) for r in range(world)])\n"
    "    shard = pflat.view(k, world)[:, rank].clone()\n"
    "    g = gflat.view(k, world)[:, rank].clone()\n"
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n"
    "    gathered = shard.new_empty(world * k)\n"
    "    dist.all_gather_single(gathered, shard)\n"
    "    full = gathered.view(world, k).t().reshape(-1)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
