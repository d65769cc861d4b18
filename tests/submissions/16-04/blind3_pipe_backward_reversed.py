"""Wrong pipeline_grads: both ranks run the backwards last-in first-out (micro-batch M-1 first, as backprop
"unwinds"), rank 1 sending and rank 0 receiving the activation gradients in the order M-1, ..., 0; the sums
are the same. Breaks: "then receives the M activation gradients in the order 0, 1, ..., M-1" and "sends the
gradient of that micro-batch's loss ... to rank 0, in the order 0, 1, ..., M-1."
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
        for out in reversed(outs):
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
        for buf, loss in reversed(list(zip(bufs, losses))):
            loss.backward()
            dist.send(buf.grad, 0)
'''}
