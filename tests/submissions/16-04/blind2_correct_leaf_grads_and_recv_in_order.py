"""A blind-round correct answer to zero3_step and pipeline_grads, written differently. zero3_step gathers with
the list form dist.all_gather, rebuilds leaves by unflatten_shards, back-propagates each layer with
torch.autograd.backward into the leaves' .grad (the last layer through loss_fn), pads the gradient with
torch.nn.functional.pad, reduce-scatters with reduce_scatter_single, and reuses the notebook's _adamw_shard
with its state in a list kept under one key. pipeline_grads keeps the weighted losses and the receive
buffers in dicts keyed by micro-batch, and rank 0 reads its gradients into tensors made by new_empty."""
EXPECT = {"zero3": "pass", "pipeline": "pass"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W = dist.get_world_size()
    per_layer = state.setdefault("layers", [{} for _ in layers])

    def leaves(i, need_grad):
        got = [torch.empty_like(shards[i]) for _ in range(W)]
        dist.all_gather(got, shards[i])
        full = unflatten_shards(got, layers[i].shapes)
        del got
        return [t.requires_grad_(need_grad) for t in full]

    acts = []
    h = x
    for i, layer in enumerate(layers):
        acts.append(h)
        with torch.no_grad():
            h = layer(leaves(i, False), h)
    h = None

    above = None
    for i in reversed(range(len(layers))):
        ps = leaves(i, True)
        inp = acts[i].detach()
        if i > 0:
            inp.requires_grad_(True)
        out = layers[i](ps, inp)
        if above is None:
            torch.autograd.backward(loss_fn(out, y))
        else:
            torch.autograd.backward(out, above)
        above = inp.grad if i > 0 else None
        flat = torch.cat([p.grad.reshape(-1) for p in ps])
        del out, ps, inp
        acts[i] = None
        k = shards[i].numel()
        flat = torch.nn.functional.pad(flat, (0, W * k - flat.numel()))
        own = torch.empty_like(shards[i])
        dist.reduce_scatter_single(own, flat)
        with torch.no_grad():
            _adamw_shard(shards[i], own / W, per_layer[i], lr, betas, eps, weight_decay)
''', "pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    w0 = next(stage.parameters())
    chunks = dict(enumerate(torch.tensor_split(data, M)))
    total = data.shape[0]
    if dist.get_rank() == 0:
        outputs = {}
        for m, xm in chunks.items():
            outputs[m] = stage(xm)
            dist.send(outputs[m].detach(), dst=1)
        for m in range(M):
            incoming = w0.new_empty(outputs[m].shape)
            dist.recv(incoming, src=1)
            outputs.pop(m).backward(incoming)
    else:
        received, weighted = {}, {}
        for m, ym in chunks.items():
            received[m] = torch.zeros((ym.shape[0], width), dtype=w0.dtype, device=w0.device)
            dist.recv(received[m], src=0)
            received[m].requires_grad_()
            weighted[m] = loss_fn(stage(received[m]), ym) * ym.shape[0] / total
        for m in range(M):
            weighted.pop(m).backward()
            dist.send(received.pop(m).grad, dst=0)
'''}
