"""Wrong pipeline_grads: rank 1's receive buffer and rank 0's gradient buffer are made with
`torch.empty(shape, dtype=...)` and no device, so with NCCL on `cuda:rank` they are CPU tensors. Breaks:
"Make every tensor you create on the stage's device (`x.new_empty(...)`, `device=...`)."
"""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    parts = torch.tensor_split(data, M)
    total = data.shape[0]
    ref = next(stage.parameters())
    if rank == 0:
        outs = []
        for xm in parts:
            out = stage(xm)
            dist.send(out.detach().contiguous(), 1)
            outs.append(out)
        for out in outs:
            g = torch.empty(out.shape, dtype=out.dtype)
            dist.recv(g, 1)
            out.backward(g)
    else:
        bufs, losses = [], []
        for ym in parts:
            buf = torch.empty(ym.shape[0], width, dtype=ref.dtype)
            dist.recv(buf, 0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / total))
            bufs.append(buf)
        for buf, loss in zip(bufs, losses):
            loss.backward()
            dist.send(buf.grad, 0)
'''}
