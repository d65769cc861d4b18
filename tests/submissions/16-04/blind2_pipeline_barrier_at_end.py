"""A blind-round wrong answer to pipeline_grads: right gradients, but both ranks end with dist.barrier() "to
be safe". The notebook: "Each rank sends exactly M messages ... and calls no collective"."""
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
        bufs, losses = [], []
        for ym in parts:
            buf = torch.empty(ym.shape[0], width, dtype=p0.dtype, device=p0.device)
            dist.recv(buf, src=0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / N))
            bufs.append(buf)
        for buf, loss in zip(bufs, losses):
            loss.backward()
            dist.send(buf.grad, dst=0)
    dist.barrier()
'''}
