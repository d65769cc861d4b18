"""Wrong pipeline_grads: rank 0 sends each micro-batch's row count as a one-element int64 tensor before its
activations, and rank 1 sizes its buffer from it, so rank 0 sends 2M messages. Breaks: "Each rank sends
exactly M messages (an activation or a gradient of one micro-batch, of shape (rows, `width`))".
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
            dist.send(torch.tensor([out.shape[0]], device=out.device), 1)
            dist.send(out.detach().contiguous(), 1)
            outs.append(out)
        for out in outs:
            g = torch.empty(out.shape, dtype=out.dtype, device=out.device)
            dist.recv(g, 1)
            out.backward(g)
    else:
        bufs, losses = [], []
        for ym in parts:
            rows = torch.zeros(1, dtype=torch.int64, device=ref.device)
            dist.recv(rows, 0)
            buf = torch.empty(int(rows), width, dtype=ref.dtype, device=ref.device)
            dist.recv(buf, 0)
            buf.requires_grad_()
            losses.append(loss_fn(stage(buf), ym) * (ym.shape[0] / total))
            bufs.append(buf)
        for buf, loss in zip(bufs, losses):
            loss.backward()
            dist.send(buf.grad, 0)
'''}
