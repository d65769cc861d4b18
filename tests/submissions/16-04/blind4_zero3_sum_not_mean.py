"""The reduce-scattered gradient is never divided by W (AdamW's near scale invariance hides it except
through eps). Breaks: "**reduce-scatter** the flat, padded gradient of layer i's parameters, divide it by W"."""
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world = dist.get_world_size()

    def gathered(i, grad):
        buf = shards[i].new_empty(world * shards[i].numel())
        dist.all_gather_single(buf, shards[i])
        ps = unflatten_shards([buf], layers[i].shapes)
        del buf
        return [p.requires_grad_(grad) for p in ps]

    inputs, h = [], x
    with torch.no_grad():
        for i in range(len(layers)):
            inputs.append(h)
            h = layers[i](gathered(i, False), h)
    del h
    grad_h = None
    for i in range(len(layers) - 1, -1, -1):
        ps = gathered(i, True)
        inp = inputs.pop().detach().requires_grad_(i > 0)
        out = layers[i](ps, inp)
        wrt = ps + [inp] if i > 0 else ps
        if i == len(layers) - 1:
            grads = torch.autograd.grad(loss_fn(out, y), wrt, allow_unused=True)
        else:
            grads = torch.autograd.grad(out, wrt, grad_outputs=grad_h, allow_unused=True)
        grads = [torch.zeros_like(t) if g is None else g for t, g in zip(wrt, grads)]
        grad_h = grads[-1] if i > 0 else None
        n, k = sum(p.numel() for p in ps), shards[i].numel()
        flat = torch.cat([g.reshape(-1) for g in grads[:len(ps)]] + [shards[i].new_zeros(world * k - n)])
        del ps, out, grads, wrt
        g_shard = shards[i].new_empty(k)
        dist.reduce_scatter_single(g_shard, flat)
        del flat
        with torch.no_grad():
            _adamw_shard(shards[i], g_shard, state.setdefault(f"layer{i}", {}), lr, betas, eps, weight_decay)
'''}
