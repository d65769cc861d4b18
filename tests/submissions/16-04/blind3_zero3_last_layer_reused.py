"""Wrong zero3_step: the last layer's forward is run with gradients on and its graph kept, and the backward starts
from it directly (FSDP's "do not reshard the last unit" shortcut), so layer L-1 is gathered once and called
once per step instead of twice. Breaks: "Backward: for i = L-1, ..., 0, all-gather layer i's shard again (one
all-gather call), call `layers[i]` once on the rebuilt parameters and the input you kept".
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
    L = len(layers)
    for i in range(L - 1):
        params = gather(i)
        kept.append(h)
        with torch.no_grad():
            h = layers[i](params, h)
        del params
    kept.append(h)
    last_params = [p.requires_grad_() for p in gather(L - 1)]
    last_inp = h.detach().requires_grad_(L > 1)
    last_out = layers[L - 1](last_params, last_inp)
    del h
    upstream = None
    for i in reversed(range(len(layers))):
        if i == L - 1:
            params, inp, out = last_params, last_inp, last_out
            del last_params, last_inp, last_out
        else:
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
        with torch.no_grad():
            _adamw_shard(shards[i], mine, state.setdefault(i, {}), lr, betas, eps, weight_decay)
'''}
