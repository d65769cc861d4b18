"""A blind-round wrong answer to pipeline_grads: rank 1 receives the M activations, then runs its stage and the
loss once on their concatenation and sends back slices of one gradient. Messages and gradients are right,
but stage 1 runs one forward, not M. The notebook: "Follow gpipe_schedule(2, M)" and "Rank 1 receives each
micro-batch's activations ..., runs its stage and the loss, and in the backward sends the gradient of that
micro-batch's loss"."""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    parts = torch.tensor_split(data, M)
    N = data.shape[0]
    p0 = next(stage.parameters())
    if rank == 0:
        outs = []
        for xm in parts:
            a = stage(xm)
            dist.send(a.detach(), dst=1)
            outs.append(a)
        for a in outs:
            g = torch.empty(a.shape, dtype=a.dtype, device=a.device)
            dist.recv(g, src=1)
            a.backward(g)
    else:
        bufs = []
        for ym in parts:
            buf = torch.empty(ym.shape[0], width, dtype=p0.dtype, device=p0.device)
            dist.recv(buf, src=0)
            bufs.append(buf)
        acts = torch.cat(bufs).requires_grad_()
        loss_fn(stage(acts), data).backward()
        for piece in acts.grad.split([b.shape[0] for b in bufs]):
            dist.send(piece.contiguous(), dst=0)
'''}
