"""ZeRO-3 as plain autograd: each layer is gathered once, the forward builds one graph through all layers
and one backward runs through it, so every layer's full parameters stay alive until the end and the
backward gathers nothing."""
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world = dist.get_world_size()
    h, gathered = x, []
    for i, layer in enumerate(layers):
        pieces = [torch.empty_like(shards[i]) for _ in range(world)]
        dist.all_gather(pieces, shards[i])
        params = [p.requires_grad_() for p in unflatten_shards(pieces, layer.shapes)]
        gathered.append(params)
        h = layer(params, h)
    loss = loss_fn(h, y)
    grads = torch.autograd.grad(loss, [p for ps in gathered for p in ps])
    start = 0
    for i, ps in enumerate(gathered):
        mine = list(grads[start:start + len(ps)])
        start += len(ps)
        full = torch.cat([flatten_shard(mine, world, r) for r in range(world)])
        g = torch.empty_like(shards[i])
        dist.reduce_scatter_single(g, full)
        g /= world
        _adamw_shard(shards[i], g, state.setdefault(i, {}), lr, betas, eps, weight_decay)
'''}
