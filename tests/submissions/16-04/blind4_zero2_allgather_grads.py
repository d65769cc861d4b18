"""Believing gloo has no reduce-scatter, it all-gathers every rank's whole padded gradient and sums its
own slice locally: each rank receives everybody's full gradient. Breaks: "Flatten the gradients into one flat
buffer padded as in Exercise 1 and **reduce-scatter** it (...), so that each rank receives the summed gradient
of its own shard only"."""
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world, rank = dist.get_world_size(), dist.get_rank()
    n = sum(p.numel() for p in params)
    k = -(-n // world)
    flat_g = torch.cat([p.grad.reshape(-1) for p in params] + [params[0].grad.new_zeros(world * k - n)])
    everyone = [flat_g.new_empty(world * k) for _ in range(world)]
    dist.all_gather(everyone, flat_g)
    g_shard = sum(e[rank * k:(rank + 1) * k] for e in everyone) / world
    with torch.no_grad():
        p_shard = flatten_shard([p.detach() for p in params], world, rank)
        _adamw_shard(p_shard, g_shard, state, lr, betas, eps, weight_decay)
        full = p_shard.new_empty(world * k)
        dist.all_gather_single(full, p_shard)
    _write_back(params, full)
'''}
