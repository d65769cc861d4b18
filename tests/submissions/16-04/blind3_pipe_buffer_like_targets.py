"""Wrong pipeline_grads: rank 1 makes its receive buffer with `data.new_empty(rows, width)` as the hint suggests,
but on rank 1 `data` is the targets, so the buffer takes the targets' dtype (int64 class labels, or float32
targets for a float64 model) instead of the activations'. Breaks: "stage 0 maps a micro-batch of r rows to
activations of shape (r, `width`), in the parameters' dtype" with "Rank 1 receives each micro-batch's
activations (`dist.recv` into a buffer it makes)".
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
            buf = data.new_empty(ym.shape[0], width)
            dist.recv(buf, 0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / total))
            bufs.append(buf)
        for buf, loss in zip(bufs, losses):
            loss.backward()
            dist.send(buf.grad, 0)
'''}
