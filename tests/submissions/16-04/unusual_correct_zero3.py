"""Correct ZeRO-3, written differently: one all_gather_into_tensor per layer into a flat buffer whose views
are the parameters (freed with an explicit del), the backward through .grad of the rebuilt parameters
(torch.autograd.backward), the gradient reduce-scattered with reduce_scatter_tensor, the update in the Adam
paper's m_hat / v_hat form with per-layer step counts as 0-d float64 tensors, the state keyed by strings."""
EXPECT = {"zero3": "pass"}
CELLS = {"zero3_impl": '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world = dist.get_world_size()
    k = [s.numel() for s in shards]

    def rebuilt(i, grad):
        buf = shards[i].new_empty(world * k[i])
        dist.all_gather_into_tensor(buf, shards[i])
        out, at = [], 0
        for shape in layers[i].shapes:
            n = math.prod(shape)
            out.append(buf[at:at + n].view(shape).detach().requires_grad_(grad))
            at += n
        del buf
        return out

    saved, h = [], x.detach()
    for i in range(len(layers)):
        saved.append(h)
        with torch.no_grad():
            h = layers[i](rebuilt(i, False), h)
    carry = None
    for i in range(len(layers) - 1, -1, -1):
        ps = rebuilt(i, True)
        inp = saved.pop().detach().requires_grad_(True)
        res = layers[i](ps, inp)
        if carry is None:
            torch.autograd.backward(loss_fn(res, y))
        else:
            torch.autograd.backward(res, carry)
        carry = inp.grad
        flat = torch.cat([p.grad.reshape(-1) for p in ps])
        del ps, res, inp
        padded = flat.new_zeros(world * k[i])
        padded[:flat.numel()] = flat
        g = shards[i].new_empty(k[i])
        dist.reduce_scatter_tensor(g, padded)
        g = g / world
        st = state.setdefault(f"layer{i}", {})
        if not st:
            st.update(t=torch.zeros((), dtype=torch.float64, device=g.device), m=torch.zeros_like(g),
                      v=torch.zeros_like(g))
        st["t"] += 1
        b1, b2 = betas
        st["m"] = b1 * st["m"] + (1 - b1) * g
        st["v"] = b2 * st["v"] + (1 - b2) * g * g
        m_hat = st["m"] / (1 - b1 ** st["t"])
        v_hat = st["v"] / (1 - b2 ** st["t"])
        new = shards[i] * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps)
        with torch.no_grad():
            shards[i].copy_(new)
'''}
