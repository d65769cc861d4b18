"""Unusual but correct blocked_attention (round 16): the running maximum starts at the dtype's most negative
finite number instead of -inf (so exp(m - m_new) never sees -inf - -inf and needs no special case), the
tiles come from torch.split, and the products are einsums."""
CELLS = {"blocked_impl": '''def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    """Attention over tiles of block_size keys with a running max, denominator and accumulator."""
    L, E = q.shape[-2], q.shape[-1]
    s_scale = (1.0 / math.sqrt(E)) if scale is None else scale
    lowest = torch.finfo(q.dtype).min
    m = torch.full((*q.shape[:-1], 1), lowest, dtype=q.dtype, device=q.device)
    l = torch.zeros((*q.shape[:-1], 1), dtype=q.dtype, device=q.device)
    acc = torch.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype, device=q.device)
    qi = torch.arange(L, device=q.device).unsqueeze(-1)
    start = 0
    for k_t, v_t in zip(torch.split(k, block_size, dim=-2), torch.split(v, block_size, dim=-2)):
        b = k_t.shape[-2]
        s = torch.einsum("...le,...se->...ls", q, k_t) * s_scale
        if is_causal:
            kj = torch.arange(start, start + b, device=q.device).unsqueeze(0)
            s = torch.where(kj <= qi, s, torch.full_like(s, float("-inf")))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        c = (m - m_new).exp()
        p = (s - m_new).exp()
        l = l * c + p.sum(dim=-1, keepdim=True)
        acc = acc * c + torch.einsum("...ls,...sd->...ld", p, v_t)
        m = m_new
        start += b
    return acc / l
'''}
EXPECT = {"blocked": "pass"}
