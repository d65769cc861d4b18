"""Wrong pipeline_grads: cuts the batch into pieces of ceil(N/M) rows with `torch.split` (as DataLoader batches
are cut), which gives fewer than M micro-batches for some N and M (6 rows, M = 4: 3 pieces) and different
sizes from `tensor_split` (10 rows, M = 4: 3, 3, 3, 1); the loss weighting by rows keeps the gradients right.
Breaks: "Cut `data` into M micro-batches with `torch.tensor_split(data, M)`" and "Each rank sends exactly M
messages".
"""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    parts = torch.split(data, math.ceil(data.shape[0] / M))
    total = data.shape[0]
    ref = next(stage.parameters())
    if rank == 0:
        outs = []
        for xm in parts:
            out = stage(xm)
            dist.send(out.detach().contiguous(), 1)
            outs.append(out)
        for out in outs:
            g = torch.empty(out.shape, dtype=out.dtype, device=out.device)
            dist.recv(g, 1)
            out.backward(g)
    else:
        bufs, losses = [], []
        for ym in parts:
            buf = torch.empty(ym.shape[0], width, dtype=ref.dtype, device=ref.device)
            dist.recv(buf, 0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / total))
            bufs.append(buf)
        for buf, loss in zip(bufs, losses):
            loss.backward()
            dist.send(buf.grad, 0)
'''}
