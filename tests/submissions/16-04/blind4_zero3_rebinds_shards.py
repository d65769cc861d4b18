"""Writes AdamW functionally and stores the result with shards[i] = ..., a new tensor: the caller's list
sees it, but the shard tensors the caller holds are never updated. Breaks: "Write the new values into the
tensors of `shards` in place (same tensor objects, same memory) and return None."
"""
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
        g_shard /= world
        st = state.setdefault(f"layer{i}", {"step": 0, "m": torch.zeros_like(g_shard), "v": torch.zeros_like(g_shard)})
        st["step"] += 1
        t, (b1, b2) = st["step"], betas
        st["m"] = b1 * st["m"] + (1 - b1) * g_shard
        st["v"] = b2 * st["v"] + (1 - b2) * g_shard * g_shard
        denom = st["v"].sqrt() / math.sqrt(1 - b2 ** t) + eps
        shards[i] = shards[i] * (1 - lr * weight_decay) - lr / (1 - b1 ** t) * st["m"] / denom
'''}
