"""A blind-round wrong answer to zero3_step: a hand-written AdamW whose moments are made with
torch.zeros(k, device=...), so they are float32 even for float64 shards and the float64 result drifts from
torch.optim.AdamW's. The notebook: the shards must hold "exactly what one step of torch.optim.AdamW ...
gives on a single process", in float32 and float64 ("float32 and float64", how the notebook is graded)."""
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
            del ps
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
        del out, ps, wrt
        upstream = grads[-1] if i > 0 else None
        k = shards[i].numel()
        flat = torch.cat([g.reshape(-1) for g in grads[:len(layers[i].shapes)]])
        flat = torch.cat([flat, flat.new_zeros(W * k - flat.numel())])
        mine = torch.empty_like(shards[i])
        dist.reduce_scatter_single(mine, flat)
        mine /= W
        st = state.setdefault(i, {})
        if not st:
            st["t"] = 0
            st["m"] = torch.zeros(k, device=shards[i].device)
            st["v"] = torch.zeros(k, device=shards[i].device)
        st["t"] += 1
        b1, b2 = betas
        with torch.no_grad():
            shards[i].mul_(1 - lr * weight_decay)
            st["m"].mul_(b1).add_(mine, alpha=1 - b1)
            st["v"].mul_(b2).add_(mine * mine, alpha=1 - b2)
            m_hat = st["m"] / (1 - b1 ** st["t"])
            v_hat = st["v"] / (1 - b2 ** st["t"])
            shards[i].sub_(lr * m_hat / (v_hat.sqrt() + eps))
        kept[i] = None
'''}
