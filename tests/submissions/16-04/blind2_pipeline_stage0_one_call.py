"""A blind-round wrong answer to pipeline_grads: rank 0 runs its stage once on the whole batch, cuts the
activations with tensor_split and sends the pieces, then back-propagates once with the received gradients
concatenated. Gradients and messages are right, but stage 0 runs one forward and one backward, not M. The
notebook: "rank 0 runs the M forwards of its stage, sending each micro-batch's activations ... and
back-propagates each through its stage"."""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    parts = torch.tensor_split(data, M)
    N = data.shape[0]
    p0 = next(stage.parameters())
    if rank == 0:
        act = stage(data)
        outs = torch.tensor_split(act, M)
        for a in outs:
            dist.send(a.detach().contiguous(), dst=1)
        grads = []
        for a in outs:
            g = torch.empty(a.shape, dtype=a.dtype, device=a.device)
            dist.recv(g, src=1)
            grads.append(g)
        act.backward(torch.cat(grads))
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
