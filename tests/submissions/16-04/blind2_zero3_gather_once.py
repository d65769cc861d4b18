"""A blind-round wrong answer to zero3_step: every layer's parameters are gathered once at the start of the
step and kept (leaves requiring grad) for the forward and the backward, which is one loss.backward(). The
notebook: "Backward: for i = L-1, ..., 0, all-gather layer i's shard again" and "when `layers[i]` runs, no
parameter gathered for another layer is still alive"."""
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W = dist.get_world_size()
    full = []
    for i, layer in enumerate(layers):
        pieces = [torch.empty_like(shards[i]) for _ in range(W)]
        dist.all_gather(pieces, shards[i])
        full.append([p.requires_grad_() for p in unflatten_shards(pieces, layer.shapes)])
    h = x
    for layer, ps in zip(layers, full):
        h = layer(ps, h)
    loss_fn(h, y).backward()
    for i in reversed(range(len(layers))):
        k = shards[i].numel()
        flat = torch.cat([p.grad.reshape(-1) for p in full[i]])
        flat = torch.cat([flat, flat.new_zeros(W * k - flat.numel())])
        mine = torch.empty_like(shards[i])
        dist.reduce_scatter_single(mine, flat)
        mine /= W
        with torch.no_grad():
            _adamw_shard(shards[i], mine, state.setdefault(i, {}), lr, betas, eps, weight_decay)
    del full
'''}
