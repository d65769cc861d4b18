"""Cuts the batch with torch.chunk instead of torch.tensor_split: other micro-batch sizes (7 rows in 3
give 3, 3, 1), and fewer than M pieces for some sizes (6 rows in 4 give 3), so fewer than M messages. Breaks:
"Cut `data` into M micro-batches with `torch.tensor_split(data, M)`" and "Each rank sends exactly M
messages"."""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    rows = data.shape[0]
    p0 = next(stage.parameters())
    if rank == 0:
        outs = []
        for xm in torch.chunk(data, M):
            out = stage(xm)
            dist.send(out.detach().contiguous(), 1)
            outs.append(out)
        for out in outs:
            g = out.new_empty(out.shape)
            dist.recv(g, 1)
            out.backward(g)
    else:
        pending = []
        for ym in torch.chunk(data, M):
            act = torch.empty((ym.shape[0], width), dtype=p0.dtype, device=p0.device)
            dist.recv(act, 0)
            act.requires_grad_(True)
            loss = loss_fn(stage(act), ym) * (ym.shape[0] / rows)
            pending.append((act, loss))
        for act, loss in pending:
            loss.backward()
            dist.send(act.grad.contiguous(), 0)
'''}
