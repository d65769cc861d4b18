"""Both ranks run the backwards last micro-batch first (as many GPipe write-ups draw it); the gradients
still add up to the right sum. Breaks: "then receives the M activation gradients in the order 0, 1, ...,
M-1" and "sends the gradient ... to rank 0, in the order 0, 1, ..., M-1"."""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    rows = data.shape[0]
    p0 = next(stage.parameters())
    if rank == 0:
        outs = []
        for xm in torch.tensor_split(data, M):
            out = stage(xm)
            dist.send(out.detach().contiguous(), 1)
            outs.append(out)
        for out in reversed(outs):
            g = out.new_empty(out.shape)
            dist.recv(g, 1)
            out.backward(g)
    else:
        pending = []
        for ym in torch.tensor_split(data, M):
            act = torch.empty((ym.shape[0], width), dtype=p0.dtype, device=p0.device)
            dist.recv(act, 0)
            act.requires_grad_(True)
            loss = loss_fn(stage(act), ym) * (ym.shape[0] / rows)
            pending.append((act, loss))
        for act, loss in reversed(pending):
            loss.backward()
            dist.send(act.grad.contiguous(), 0)
'''}
