"""Correct zero3_step written differently: every layer's backward is one `torch.func.vjp` (the last layer's
function includes the loss, and the loss's cotangent is 1/W, so the summed reduce-scatter is already the
mean), the gradient is reduce-scattered with the list form `dist.reduce_scatter`, the all-gather fills slices
of one flat buffer, the AdamW step is written out with the step count as a 0-d tensor, and the state is keyed
by strings. (As first written, before grading, it skipped the last layer's forward, whose output no
later layer needs, and made its step count without device=: both fairly rejected by the blind round; fixed.)
"""
EXPECT = {"zero3": "pass"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W = dist.get_world_size()
    n_layers = len(layers)

    def full_params(i):
        k = shards[i].numel()
        flat = shards[i].new_empty(W * k)
        dist.all_gather(list(flat.split(k)), shards[i])
        return [t.clone() for t in unflatten_shards([flat[r * k:(r + 1) * k] for r in range(W)], layers[i].shapes)]

    inputs = [x]
    for i in range(n_layers):
        with torch.no_grad():
            inputs.append(layers[i](full_params(i), inputs[-1]))
    cot = None
    for i in range(n_layers - 1, -1, -1):
        if i == n_layers - 1:
            fn = lambda ps, h, i=i: loss_fn(layers[i](ps, h), y)
        else:
            fn = lambda ps, h, i=i: layers[i](ps, h)
        out, pull = torch.func.vjp(fn, full_params(i), inputs[i])
        if cot is None:
            cot = torch.full_like(out, 1.0 / W)
        g_params, g_in = pull(cot)
        del out, pull
        cot = g_in
        k = shards[i].numel()
        g = shards[i].new_zeros(W * k)
        at = 0
        for gp in g_params:
            g[at:at + gp.numel()] = gp.reshape(-1)
            at += gp.numel()
        del g_params
        mine = shards[i].new_empty(k)
        dist.reduce_scatter(mine, list(g.split(k)))
        del g
        key = f"layer{i}"
        if key not in state:
            state[key] = {"t": torch.zeros((), dtype=torch.int64, device=mine.device), "m": torch.zeros_like(mine), "v": torch.zeros_like(mine)}
        s = state[key]
        s["t"] += 1
        t = int(s["t"])
        b1, b2 = betas
        with torch.no_grad():
            s["m"].mul_(b1).add_((1 - b1) * mine)
            s["v"].mul_(b2).add_((1 - b2) * mine * mine)
            m_hat = s["m"] / (1 - b1 ** t)
            v_hat = s["v"] / (1 - b2 ** t)
            shards[i].mul_(1 - lr * weight_decay).sub_(lr * m_hat / (v_hat.sqrt() + eps))
'''}
