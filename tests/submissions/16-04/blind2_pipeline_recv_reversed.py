"""A blind-round wrong answer to pipeline_grads: rank 0 receives the activation gradients last micro-batch
first (thinking backward runs in reverse), while rank 1 sends them in order 0, 1, ..., M-1; each gradient
meets the wrong micro-batch. The notebook: "then receives the M activation gradients in the order 0, 1,
..., M-1 (`dist.recv`)"."""
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
        for a in reversed(outs):
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
'''}
