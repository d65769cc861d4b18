"""Every rank updates the whole flat parameter (DDP with extra steps): right values, but moments for all n
elements on every rank."""
from course.grading.class_run.submissions import edited

EXPECT = {'zero1': 'fail'}
CELLS = {
    'zero1_impl': edited("16-04", 'zero1_impl', ('    shard = flatten_shard([p.detach() for p in params], world, rank)\n    g = flatten_shard([grad], world, rank)\n    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n    full = shard.new_empty(world * k)\n    dist.all_gather_single(full, shard)\n    _write_back(params, full)', '    flat = flatten_shard([p.detach() for p in params], 1, 0)\n    _adamw_shard(flat, grad, state, lr, betas, eps, weight_decay)\n    full = flat.new_empty(world * k)\n    dist.all_gather_single(full, flatten_shard([flat], world, rank))\n    _write_back(params, full)')),
}
