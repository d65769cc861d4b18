"""Wrong pipeline_grads: ends with `dist.barrier()` on both ranks "so that neither leaves before the other has
finished". Breaks: "Each rank sends exactly M messages ... and calls no collective; return None."
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
    dist.barrier()
'''}
