"""Wrong zero3_step: the backward deletes the rebuilt parameters but keeps `loss` and `out` in variables, so the
last layer's autograd graph (whose AccumulateGrad nodes hold the gathered leaves) stays alive while every
earlier layer is recomputed, and the previous layer's output graph stays alive during each next all-gather.
Breaks: "So when `layers[i]` runs, no parameter gathered for another layer is still alive ... keep no
reference in a variable, in `state` or in an autograd graph." and "drop the gathered parameters and the
call's output before the next all-gather".
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
        else:
            out.backward(upstream)
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
