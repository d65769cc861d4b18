"""A blind-round wrong answer to zero3_step: the call's output is dropped, but the name `ps` still holds the
previous layer's gathered parameters while the next all-gather runs (it is only rebound when that gather
returns). The notebook: "drop the gathered parameters before the next all-gather" (Forward bullet) and
"drop the gathered parameters and the call's output before the next all-gather" (Backward bullet)."""
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W = dist.get_world_size()
    L = len(layers)

    def gather(i):
        pieces = [torch.empty_like(shards[i]) for _ in range(W)]
        dist.all_gather(pieces, shards[i])
        return unflatten_shards(pieces, layers[i].shapes)

    kept, h = [], x
    with torch.no_grad():
        for i in range(L):
            ps = gather(i)
            kept.append(h)
            h = layers[i](ps, h)
    del h
    upstream = None
    for i in reversed(range(L)):
        ps = [p.requires_grad_() for p in gather(i)]
        inp = kept[i].detach().requires_grad_(i > 0)
        out = layers[i](ps, inp)
        wrt = ps + ([inp] if i > 0 else [])
        if i == L - 1:
            grads = torch.autograd.grad(loss_fn(out, y), wrt)
        else:
            grads = torch.autograd.grad(out, wrt, grad_outputs=upstream)
        del out, wrt
        upstream = grads[-1] if i > 0 else None
        k = shards[i].numel()
        flat = torch.cat([g.reshape(-1) for g in grads[:len(layers[i].shapes)]])
        flat = torch.cat([flat, flat.new_zeros(W * k - flat.numel())])
        mine = torch.empty_like(shards[i])
        dist.reduce_scatter_single(mine, flat)
        mine /= W
        with torch.no_grad():
            _adamw_shard(shards[i], mine, state.setdefault(i, {}), lr, betas, eps, weight_decay)
        kept[i] = None
'''}
