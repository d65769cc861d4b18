"""Correct two-stage pipeline, written differently: no schedule list (all forwards in a loop, then all
backwards), isend/irecv with wait(), rank 1 scaling the received activations' gradient through
torch.autograd.grad of a loss summed over rows and divided by the batch's rows, and rank 0 accumulating
by torch.autograd.backward on a list of outputs at the end."""
EXPECT = {"pipeline": "pass"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    pieces = torch.tensor_split(data, M)
    p0 = next(iter(stage.parameters()))
    if dist.get_rank() == 0:
        outs = []
        for piece in pieces:
            out = stage(piece)
            dist.isend(out.detach().contiguous(), dst=1).wait()
            outs.append(out)
        grads = []
        for out in outs:
            g = torch.zeros(out.shape, dtype=out.dtype, device=out.device)
            dist.irecv(g, src=0 + 1).wait()
            grads.append(g)
        torch.autograd.backward(outs, grads)
        return None
    acts, losses = [], []
    for piece in pieces:
        a = torch.zeros((piece.shape[0], width), dtype=p0.dtype, device=p0.device)
        dist.irecv(a, src=0).wait()
        a.requires_grad_(True)
        acts.append(a)
        losses.append(loss_fn(stage(a), piece) * piece.shape[0] / data.shape[0])
    for a, loss in zip(acts, losses):
        params = [p for p in stage.parameters()]
        g_a, *g_p = torch.autograd.grad(loss, [a] + params)
        for p, g in zip(params, g_p):
            p.grad = g if p.grad is None else p.grad + g
        dist.isend(g_a, dst=0).wait()
'''}
