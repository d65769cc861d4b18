"""Rank 1 makes its receive buffer with ym.new_empty, i.e. in the targets' dtype (integer class labels,
or float32 targets for a float64 model) instead of the parameters' dtype. Breaks: "stage 0 maps a micro-batch
of r rows to activations of shape (r, `width`), in the parameters' dtype" with "Rank 1 receives each
micro-batch's activations (`dist.recv` into a buffer it makes)"."""
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
        for out in outs:
            g = out.new_empty(out.shape)
            dist.recv(g, 1)
            out.backward(g)
    else:
        pending = []
        for ym in torch.tensor_split(data, M):
            act = ym.new_empty((ym.shape[0], width))
            dist.recv(act, 0)
            act.requires_grad_(True)
            loss = loss_fn(stage(act), ym) * (ym.shape[0] / rows)
            pending.append((act, loss))
        for act, loss in pending:
            loss.backward()
            dist.send(act.grad.contiguous(), 0)
'''}
