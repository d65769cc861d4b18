"""A blind-round wrong answer to pipeline_grads: rank 0 first sends each micro-batch's row count as a
one-element tensor, so that rank 1 can size its buffer, then the activations: 2M messages. The notebook:
"Each rank sends exactly M messages (an activation or a gradient of one micro-batch, of shape (rows,
`width`))"."""
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
            dist.send(torch.tensor([a.shape[0]], device=a.device), dst=1)
            dist.send(a.detach(), dst=1)
            outs.append(a)
        for a in outs:
            g = torch.empty(a.shape, dtype=a.dtype, device=a.device)
            dist.recv(g, src=1)
            a.backward(g)
    else:
        bufs, losses = [], []
        for ym in parts:
            rows = torch.zeros(1, dtype=torch.long, device=p0.device)
            dist.recv(rows, src=0)
            buf = torch.empty(int(rows), width, dtype=p0.dtype, device=p0.device)
            dist.recv(buf, src=0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / N))
            bufs.append(buf)
        for buf, loss in zip(bufs, losses):
            loss.backward()
            dist.send(buf.grad, dst=0)
'''}
