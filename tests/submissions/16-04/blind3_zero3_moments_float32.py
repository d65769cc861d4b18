"""Wrong zero3_step: its own AdamW keeps the moments in `torch.zeros(k)`, float32 and on the default device
whatever the shards' dtype, so float64 shards are updated from float32 moments (rounded at every step).
Breaks: "every rank's `shards` hold exactly what one step of `torch.optim.AdamW` ... gives on a single process"
(AdamW keeps its state in the parameters' dtype) and "Make every tensor you create on the shards' device."
"""
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world = dist.get_world_size()

    def gather(i):
        pieces = [torch.empty_like(shards[i]) for _ in range(world)]
        dist.all_gather(pieces, shards[i])
        return unflatten_shards(pieces, layers[i].shapes)

    kept = []
    h = x
    for i in range(len(layers)):
        params = gather(i)
        kept.append(h)
        with torch.no_grad():
            h = layers[i](params, h)
        del params
    del h
    upstream = None
    for i in reversed(range(len(layers))):
        params = [p.requires_grad_() for p in gather(i)]
        inp = kept[i].detach().requires_grad_(i > 0)
        out = layers[i](params, inp)
        if upstream is None:
            loss = loss_fn(out, y)
            loss.backward()
            del loss
        else:
            out.backward(upstream)
        del out
        upstream = inp.grad if i > 0 else None
        flat = torch.cat([p.grad.reshape(-1) if p.grad is not None else p.new_zeros(p.numel()) for p in params])
        del params
        k = shards[i].numel()
        flat = torch.cat([flat, flat.new_zeros(world * k - flat.numel())])
        mine = flat.new_empty(k)
        dist.reduce_scatter_single(mine, flat)
        mine.div_(world)
        del flat
        st = state.setdefault(i, {"t": 0, "m": torch.zeros(k), "v": torch.zeros(k)})
        st["t"] += 1
        b1, b2 = betas
        with torch.no_grad():
            st["m"].mul_(b1).add_(mine, alpha=1 - b1)
            st["v"].mul_(b2).addcmul_(mine, mine, value=1 - b2)
            shards[i].mul_(1 - lr * weight_decay)
            denom = st["v"].sqrt() / math.sqrt(1 - b2 ** st["t"]) + eps
            shards[i].addcdiv_(st["m"], denom, value=-lr / (1 - b1 ** st["t"]))
'''}
