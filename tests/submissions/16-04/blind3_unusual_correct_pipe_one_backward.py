"""Correct pipeline_grads written differently: rank 1 runs one `torch.autograd.backward` over the M unweighted
losses with their weights (rows / N) as grad_tensors, then sends the M buffers' gradients in order; rank 0
receives all M gradients first and back-propagates them together with one `torch.autograd.backward(outs,
grads)`; buffers are made with `new_empty` on a parameter.
"""
EXPECT = {"pipeline": "pass"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    p = next(iter(stage.parameters()))
    chunks = torch.tensor_split(data, M)
    n = len(data)
    if dist.get_rank() == 0:
        outs = [stage(c) for c in chunks]
        for o in outs:
            dist.send(o.detach(), dst=1)
        grads = []
        for o in outs:
            grads.append(p.new_empty(o.shape))
            dist.recv(grads[-1], src=1)
        torch.autograd.backward(outs, grads)
        return None
    acts, losses = [], []
    for c in chunks:
        a = p.new_empty((len(c), width))
        dist.recv(a, src=0)
        acts.append(a.requires_grad_())
        losses.append(loss_fn(stage(a), c))
    weights = [torch.tensor(len(c) / n, dtype=l.dtype, device=l.device) for c, l in zip(chunks, losses)]
    torch.autograd.backward(losses, weights)
    for a in acts:
        dist.send(a.grad, dst=0)
    return None
'''}
