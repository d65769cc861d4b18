"""Wrong zero3_step: the backward keeps every layer's full flat gradient and reduce-scatters them all after the
last recomputation (one "bucket" pass), so the full gradients of all layers are alive together and layer i's
reduce-scatter comes after the all-gathers of layers i-1, ..., 0. Breaks: "back-propagate through that call
..., **reduce-scatter** the flat, padded gradient of layer i's parameters, divide it by W, and drop the
gathered parameters and the call's output before the next all-gather."
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
    pending = []
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
        pending.append((i, flat))
        del flat
    for i, flat in pending:
        k = shards[i].numel()
        flat = torch.cat([flat, flat.new_zeros(world * k - flat.numel())])
        mine = flat.new_empty(k)
        dist.reduce_scatter_single(mine, flat)
        mine.div_(world)
        del flat
        with torch.no_grad():
            _adamw_shard(shards[i], mine, state.setdefault(i, {}), lr, betas, eps, weight_decay)
'''}
