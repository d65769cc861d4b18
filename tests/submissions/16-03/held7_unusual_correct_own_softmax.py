"""Correct, written differently from the reference: attention with a softmax taken by hand (max
subtracted, exp, sum; dead rows found from the row maximum), the position table filled column pair by
column pair, patches cut with Tensor.reshape and einsum, a cache kept as lists joined on demand, and the
bottom-right mask built with tril's diagonal. Every task it names must pass."""

EXPECT = {"sdpa": "pass", "embed": "pass", "kv_cache": "pass"}

CELLS = {
    "sdpa_impl": '''
def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0,
                                 generator=None):
    """softmax(q @ k^T * scale + mask) @ v over the last two dimensions, as F.scaled_dot_product_attention."""
    if is_causal and attn_mask is not None:
        raise ValueError("attn_mask and is_causal=True exclude each other")
    s = torch.matmul(q, k.transpose(-1, -2))
    s = s * (q.shape[-1] ** -0.5 if scale is None else scale)
    if is_causal:
        keep = torch.tril(torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device))
        s = torch.where(keep, s, torch.full_like(s, -math.inf))
    elif attn_mask is not None and attn_mask.dtype == torch.bool:
        s = torch.where(attn_mask, s, torch.full_like(s, -math.inf))
    elif attn_mask is not None:
        s = s + attn_mask
    top = s.amax(dim=-1, keepdim=True).detach()
    alive = top > -math.inf
    e = torch.exp(s - torch.where(alive, top, torch.zeros_like(top)))
    e = torch.where(alive, e, torch.zeros_like(e))
    total = e.sum(dim=-1, keepdim=True)
    w = e / torch.where(alive, total, torch.ones_like(total))
    if dropout_p > 0:
        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)
        w = torch.where(u >= dropout_p, w / (1 - dropout_p), torch.zeros_like(w))
    return torch.matmul(w, v)
''',
    "embed_impl": '''
def sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32):
    """The (length, d_model) sinusoidal position table: sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    table = torch.empty(length, d_model, dtype=torch.float64)
    p = torch.arange(length, dtype=torch.float64)
    for i in range(d_model // 2):
        angle = p / (float(base) ** (2.0 * i / d_model))
        table[:, 2 * i] = torch.sin(angle)
        table[:, 2 * i + 1] = torch.cos(angle)
    return table.to(dtype)


def patch_embed(images, weight, bias=None):
    """Non-overlapping patches of images (N, C, H, W) projected by weight (E, C, ph, pw): (N, P, E)."""
    E, C, ph, pw = weight.shape
    N, _, H, W = images.shape
    rows, cols = H // ph, W // pw
    cut = images[..., :rows * ph, :cols * pw].reshape(N, C, rows, ph, cols, pw)
    out = torch.einsum("ncyhxw,echw->nyxe", cut, weight).reshape(N, rows * cols, E)
    if bias is not None:
        out = out + bias
    return out
''',
    "kv_impl": '''
class KVCache:
    """Keys and values of the positions seen so far, (B, H, positions, D) each."""

    def __init__(self):
        self._k, self._v = [], []

    @property
    def k(self):
        return torch.cat(self._k, dim=2) if self._k else None

    @property
    def v(self):
        return torch.cat(self._v, dim=2) if self._v else None

    def __len__(self):
        return sum(t.shape[2] for t in self._k)

    def update(self, k, v):
        self._k.append(k)
        self._v.append(v)
        return self.k, self.v


class CausalSelfAttention(nn.Module):
    """Causal multi-head self attention that can continue a sequence from a KVCache."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.h = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, cache=None):
        B, T, E = x.shape
        q, k, v = self.qkv(x).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.h, E // self.h).permute(0, 2, 1, 3) for t in (q, k, v))
        before = 0 if cache is None else len(cache)
        if cache is not None:
            k, v = cache.update(k, v)
        keep = torch.ones(T, before + T, dtype=torch.bool, device=x.device).tril(diagonal=before)
        out = scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return self.proj(out.permute(0, 2, 1, 3).reshape(B, T, E))
''',
}
