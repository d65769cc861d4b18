"""A blind-round correct answer to zero3_step and pipeline_grads, written differently. zero3_step gathers each
layer with one all_gather_single into a flat buffer whose split views are the parameters, back-propagates
layer by layer with torch.func.vjp (dropping the pull-back before the next gather), reduce-scatters with
the list form dist.reduce_scatter on chunks of a padded gradient, and runs AdamW from its own moments
keyed by strings. pipeline_grads receives every activation into rows of one (N, width) buffer on rank 1,
back-propagates an unweighted loss with its row weight as the seed gradient, and on rank 0 calls
torch.autograd.backward after each receive."""
EXPECT = {"zero3": "pass", "pipeline": "pass"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world = dist.get_world_size()
    b1, b2 = betas

    def params_of(i):
        flat = shards[i].new_empty(world * shards[i].numel())
        dist.all_gather_single(flat, shards[i])
        counts = [math.prod(s) for s in layers[i].shapes]
        pieces = flat.split(counts + [flat.numel() - sum(counts)])
        return [piece.view(shape) for piece, shape in zip(pieces, layers[i].shapes)]

    inputs = [x]
    with torch.no_grad():
        for i in range(len(layers)):
            inputs.append(layers[i](params_of(i), inputs[-1]))
    inputs.pop()

    seed = None
    for i in range(len(layers) - 1, -1, -1):
        h_in = inputs.pop()
        if seed is None:
            value, pull = torch.func.vjp(lambda ps, h: loss_fn(layers[i](ps, h), y), params_of(i), h_in)
            seed = torch.ones_like(value)
        else:
            value, pull = torch.func.vjp(lambda ps, h: layers[i](ps, h), params_of(i), h_in)
        g_params, g_in = pull(seed)
        del value, pull
        seed = g_in
        k = shards[i].numel()
        flat_g = torch.cat([g.reshape(-1) for g in g_params] + [shards[i].new_zeros(world * k - sum(g.numel() for g in g_params))])
        del g_params
        mine = shards[i].new_empty(k)
        dist.reduce_scatter(mine, list(flat_g.chunk(world)))
        mine.div_(world)
        key = f"layer{i}"
        if key + ".t" not in state:
            state[key + ".t"] = 0
            state[key + ".m"] = shards[i].new_zeros(k)
            state[key + ".v"] = shards[i].new_zeros(k)
        state[key + ".t"] += 1
        t, m, v = state[key + ".t"], state[key + ".m"], state[key + ".v"]
        with torch.no_grad():
            shards[i].mul_(1 - lr * weight_decay)
            m.mul_(b1).add_(mine, alpha=1 - b1)
            v.mul_(b2).add_(mine.square(), alpha=1 - b2)
            step_size = lr / (1 - b1 ** t)
            shards[i].sub_(step_size * m / (v.sqrt() / math.sqrt(1 - b2 ** t) + eps))
''', "pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    some = next(iter(stage.parameters()))
    rows = [len(piece) for piece in torch.tensor_split(data, M)]
    starts = [sum(rows[:m]) for m in range(M)]
    if dist.get_rank() == 0:
        acts = []
        for m in range(M):
            a = stage(data[starts[m]:starts[m] + rows[m]])
            dist.send(a.detach().contiguous(), 1)
            acts.append(a)
        for m in range(M):
            g = some.new_empty((rows[m], width))
            dist.recv(g, 1)
            torch.autograd.backward([acts[m]], [g])
            acts[m] = None
        return None
    everything = some.new_empty((len(data), width))
    leaves, losses = [], []
    for m in range(M):
        part = everything[starts[m]:starts[m] + rows[m]]
        dist.recv(part, 0)
        leaf = part.detach().requires_grad_(True)
        losses.append(loss_fn(stage(leaf), data[starts[m]:starts[m] + rows[m]]))
        leaves.append(leaf)
    for m in range(M):
        losses[m].backward(torch.tensor(rows[m] / len(data), dtype=losses[m].dtype, device=some.device))
        dist.send(leaves[m].grad, 0)
    return None
'''}
