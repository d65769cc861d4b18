# Correct, written differently (round 14s): sdpa with a softmax by hand whose denominator is floored at the
# dtype's machine epsilon (a row with no key left is 0 / eps = 0 in every dtype, float16 included, and its
# gradients are 0 * finite), a detached running maximum; a KVCache that grows a preallocated buffer by
# doubling and hands out views of the filled part as .k and .v (B = 1 and H = 1 included); a causal mask from
# tril(P) on x's device.
EXPECT = {"sdpa": "pass", "kv_cache": "pass"}
CELLS = {"sdpa_impl": '''
def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0,
                                 generator=None):
    """softmax(q @ k^T * scale + mask) @ v over the last two dimensions, as F.scaled_dot_product_attention.

    dropout_p: in [0, 1); weights are dropped with the generator's uniform draw described above.
    """
    if is_causal and attn_mask is not None:
        raise ValueError("attn_mask and is_causal=True together")
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    L, S = scores.shape[-2], scores.shape[-1]
    if is_causal:
        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    top = scores.amax(dim=-1, keepdim=True).detach()
    top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
    e = torch.exp(scores - top)
    w = e / e.sum(dim=-1, keepdim=True).clamp_min(torch.finfo(e.dtype).eps)
    if dropout_p > 0:
        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)
        w = torch.where(u >= dropout_p, w / (1.0 - dropout_p), torch.zeros_like(w))
    return w @ v
''', "kv_impl": '''
class KVCache:
    """Keys and values of the positions seen so far, (B, H, positions, D) each."""

    def __init__(self):
        self._k = self._v = None
        self._n = 0

    def __len__(self):
        return self._n

    @property
    def k(self):
        return None if self._k is None else self._k[..., :self._n, :]

    @property
    def v(self):
        return None if self._v is None else self._v[..., :self._n, :]

    def update(self, k, v):
        need = self._n + k.shape[-2]
        if self._k is None or need > self._k.shape[-2]:
            cap = max(need, 2 * (0 if self._k is None else self._k.shape[-2]))
            nk = k.new_empty(k.shape[:-2] + (cap, k.shape[-1]))
            nv = v.new_empty(v.shape[:-2] + (cap, v.shape[-1]))
            if self._n:
                nk[..., :self._n, :] = self.k
                nv[..., :self._n, :] = self.v
            self._k, self._v = nk, nv
        self._k[..., self._n:need, :] = k
        self._v[..., self._n:need, :] = v
        self._n = need
        return self.k, self.v


class CausalSelfAttention(nn.Module):
    """Causal multi-head self attention that can continue a sequence from a KVCache."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, cache=None):
        b, t, e = x.shape
        h = self.num_heads
        q, k, v = (z.reshape(b, t, h, e // h).transpose(1, 2) for z in self.qkv(x).split(e, dim=-1))
        past = len(cache) if cache is not None else 0
        if cache is not None:
            k, v = cache.update(k, v)
        keep = torch.ones(t, past + t, dtype=torch.bool, device=x.device).tril(past)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return self.proj(out.transpose(1, 2).reshape(b, t, e))
'''}
