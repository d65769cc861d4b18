"""A blind-round wrong answer to pipeline_grads: rank 1 takes each micro-batch's gradients with
torch.autograd.grad and assigns them to `.grad`, so only the last micro-batch's survive. The notebook: "The
parameters' gradients accumulate over the micro-batches" and "after the call the `.grad` of every parameter
of `stage` on each rank equals the gradient of loss_fn(stage1(stage0(x)), y) for the unsplit model"."""
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
            dist.send(a.detach(), dst=1)
            outs.append(a)
        for a in outs:
            g = torch.empty(a.shape, dtype=a.dtype, device=a.device)
            dist.recv(g, src=1)
            a.backward(g)
    else:
        bufs, losses = [], []
        for ym in parts:
            buf = torch.empty(ym.shape[0], width, dtype=p0.dtype, device=p0.device)
            dist.recv(buf, src=0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / N))
            bufs.append(buf)
        params = list(stage.parameters())
        for buf, loss in zip(bufs, losses):
            gs = torch.autograd.grad(loss, [buf] + params)
            for p, g in zip(params, gs[1:]):
                p.grad = g
            dist.send(gs[0], dst=0)
'''}
