"""Unusual but correct blocked_attention (round 12): tiles from k.split / v.split, tensors made with new_full /
new_zeros, the causal test with torch.where against a scalar -inf, and a running maximum that is detached
(the output does not depend on the shift, so the gradients are PyTorch's)."""

CELLS = {"blocked_impl": '''def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    """Attention over tiles of block_size keys with a running max, denominator and accumulator."""
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    lead = q.shape[:-1]
    run_max = q.new_full(lead + (1,), -math.inf)
    denom = q.new_zeros(lead + (1,))
    acc = q.new_zeros(lead + (v.shape[-1],))
    qpos = torch.arange(q.shape[-2], device=q.device).unsqueeze(-1)
    offset = 0
    for kt, vt in zip(k.split(block_size, dim=-2), v.split(block_size, dim=-2)):
        s = torch.matmul(q, kt.mT) * scale
        if is_causal:
            kpos = torch.arange(offset, offset + kt.shape[-2], device=q.device)
            s = torch.where(kpos <= qpos, s, -math.inf)
        offset += kt.shape[-2]
        new_max = torch.maximum(run_max, s.amax(dim=-1, keepdim=True)).detach()
        shift = torch.nan_to_num(new_max, neginf=0.0)
        fade = torch.exp(run_max - shift)
        p = torch.exp(s - shift)
        denom = denom * fade + p.sum(dim=-1, keepdim=True)
        acc = acc * fade + torch.matmul(p, vt)
        run_max = new_max
    return acc / denom
'''}
EXPECT = {"blocked": "pass"}
