"""Rank 0 runs its stage once on the whole batch and sends slices of that output; every backward goes
through the one shared graph (retain_graph). Same gradients for row-wise stages, not for a stage that mixes
rows (batch norm). Breaks: "rank 0 runs the M forwards of its stage, sending each micro-batch's activations
to rank 1"."""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    rows = data.shape[0]
    p0 = next(stage.parameters())
    if rank == 0:
        outs = list(torch.tensor_split(stage(data), M))
        for out in outs:
            dist.send(out.detach().contiguous(), 1)
        for out in outs:
            g = out.new_empty(out.shape)
            dist.recv(g, 1)
            out.backward(g, retain_graph=True)
    else:
        pending = []
        for ym in torch.tensor_split(data, M):
            act = torch.empty((ym.shape[0], width), dtype=p0.dtype, device=p0.device)
            dist.recv(act, 0)
            act.requires_grad_(True)
            loss = loss_fn(stage(act), ym) * (ym.shape[0] / rows)
            pending.append((act, loss))
        for act, loss in pending:
            loss.backward()
            dist.send(act.grad.contiguous(), 0)
'''}
