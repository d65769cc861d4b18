"""Wrong pipeline_grads: no pipelining at all: rank 0 sends micro-batch m's activations and waits for its
gradient before it starts micro-batch m+1, and rank 1 receives, runs forward and backward and sends back one
micro-batch at a time; the gradients are right. Breaks: "Follow `gpipe_schedule(2, M)`: rank 0 runs the M
forwards of its stage, sending each micro-batch's activations to rank 1 with `dist.send`, then receives the M
activation gradients".
"""
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    total = data.shape[0]
    ref = next(stage.parameters())
    for part in torch.tensor_split(data, M):
        if rank == 0:
            out = stage(part)
            dist.send(out.detach().contiguous(), 1)
            g = torch.empty_like(out.detach())
            dist.recv(g, 1)
            out.backward(g)
        else:
            buf = torch.empty(part.shape[0], width, dtype=ref.dtype, device=ref.device, requires_grad=True)
            with torch.no_grad():
                dist.recv(buf, 0)
            loss = loss_fn(stage(buf), part) * (part.shape[0] / total)
            loss.backward()
            dist.send(buf.grad, 0)
'''}
