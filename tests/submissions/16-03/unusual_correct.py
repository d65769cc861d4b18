"""Correct, written differently throughout: attention through logsumexp with an explicit -inf guard, heads by
einsum over a (3, H, D, E) view of in_proj_weight, a block on nn.MultiheadAttention, positions from one complex
exponential, patches by Tensor.unfold, a cache that grows a preallocated buffer, and an online softmax that
carries a running log-sum-exp instead of a max and a denominator."""
EXPECT = {"sdpa": "pass", "mha": "pass", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {
    "sdpa_impl": '''
def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0,
                                 generator=None):
    if is_causal and attn_mask is not None:
        raise ValueError("attn_mask and is_causal are exclusive")
    s = torch.einsum("...le,...se->...ls", q, k) * (q.size(-1) ** -0.5 if scale is None else scale)
    neg = torch.tensor(float("-inf"), dtype=s.dtype, device=s.device)
    if is_causal:
        i = torch.arange(q.size(-2), device=q.device)[:, None]
        j = torch.arange(k.size(-2), device=q.device)[None, :]
        s = torch.where(j <= i, s, neg)
    elif attn_mask is not None and attn_mask.dtype == torch.bool:
        s = torch.where(attn_mask, s, neg)
    elif attn_mask is not None:
        s = s + attn_mask
    alive = (s > float("-inf")).any(dim=-1, keepdim=True)
    s = torch.where(alive, s, torch.zeros_like(s))  # a row with no key would give -inf - (-inf) below
    w = torch.where(alive, torch.exp(s - torch.logsumexp(s, dim=-1, keepdim=True)), torch.zeros_like(s))
    if dropout_p:
        draw = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)
        w = torch.where(draw < dropout_p, torch.zeros_like(w), w * (1.0 / (1.0 - dropout_p)))
    return torch.einsum("...ls,...sd->...ld", w, v)
''',
    "mha_impl": '''
class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, bias=True, batch_first=False):
        super().__init__()
        if embed_dim // num_heads * num_heads != embed_dim:
            raise ValueError("num_heads must divide embed_dim")
        self.h, self.batch_first = num_heads, batch_first
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        if bias:
            self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        seq_dim = 1 if self.batch_first else 0
        bat_dim = 1 - seq_dim
        e = query.size(-1)
        d = e // self.h
        w = self.in_proj_weight.view(3, self.h, d, e)
        b = self.in_proj_bias.view(3, self.h, d) if self.in_proj_bias is not None else torch.zeros(3, self.h, d,
                                                                                                    dtype=query.dtype,
                                                                                                    device=query.device)
        order = "nle" if self.batch_first else "lne"
        q = torch.einsum(f"{order},hde->nhld", query, w[0]) + b[0][None, :, None, :]
        k = torch.einsum(f"{order},hde->nhld", key, w[1]) + b[1][None, :, None, :]
        v = torch.einsum(f"{order},hde->nhld", value, w[2]) + b[2][None, :, None, :]
        n, L, S = query.size(bat_dim), query.size(seq_dim), key.size(seq_dim)
        s = q @ k.transpose(-1, -2) / math.sqrt(d)
        for m in (attn_mask, None if key_padding_mask is None else key_padding_mask.view(n, 1, 1, S)):
            if m is None:
                continue
            if m.dim() == 3:
                m = m.view(n, self.h, L, S)
            s = s.masked_fill(m, -math.inf) if m.dtype == torch.bool else s + m
        ctx = torch.softmax(s, dim=-1) @ v
        out = self.out_proj(torch.einsum("nhld->nlhd", ctx).flatten(2))
        return out if self.batch_first else out.transpose(0, 1)
''',
    "block_impl": '''
class PreNormBlock(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps)
        self.self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=batch_first)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.act = nn.GELU() if activation == "gelu" else nn.ReLU()
        self.linear2 = nn.Linear(dim_feedforward, d_model)

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        y = self.norm1(src)
        src = src + self.self_attn(y, y, y, attn_mask=src_mask, key_padding_mask=src_key_padding_mask,
                                   need_weights=False)[0]
        return src + self.linear2(self.act(self.linear1(self.norm2(src))))
''',
    "embed_impl": '''
def sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32):
    if d_model % 2 == 1:
        raise ValueError("odd d_model")
    inv = torch.exp(-math.log(base) * torch.arange(d_model // 2, dtype=torch.float64) * 2 / d_model)
    z = torch.polar(torch.ones(length, d_model // 2, dtype=torch.float64),
                    torch.outer(torch.arange(length, dtype=torch.float64), inv))
    return torch.view_as_real(z)[..., [1, 0]].flatten(1).to(dtype)


def patch_embed(images, weight, bias=None):
    ph, pw = weight.shape[2], weight.shape[3]
    tiles = images.unfold(2, ph, ph).unfold(3, pw, pw)  # (N, C, gh, gw, ph, pw)
    out = torch.einsum("ncxyij,ecij->nxye", tiles, weight).flatten(1, 2)
    if bias is not None:
        out = out + bias
    return out
''',
    "kv_impl": '''
class KVCache:
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
        t = k.shape[-2]
        if self._k is None or self._n + t > self._k.shape[-2]:
            cap = max(2 * (self._n + t), 4)
            nk = k.new_zeros(k.shape[:-2] + (cap, k.shape[-1]))
            nv = v.new_zeros(v.shape[:-2] + (cap, v.shape[-1]))
            if self._k is not None:
                nk[..., :self._n, :] = self._k[..., :self._n, :]
                nv[..., :self._n, :] = self._v[..., :self._n, :]
            self._k, self._v = nk, nv
        self._k[..., self._n:self._n + t, :] = k
        self._v[..., self._n:self._n + t, :] = v
        self._n += t
        return self.k.clone(), self.v.clone()


class CausalSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, cache=None):
        B, T, E = x.shape
        qkv = self.qkv(x).view(B, T, 3, self.heads, E // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        offset = len(cache) if cache is not None else 0
        if cache is not None:
            k, v = cache.update(k, v)
        bias = torch.full((T, offset + T), float("-inf"), dtype=x.dtype, device=x.device).triu(offset + 1)
        w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(E // self.heads) + bias, dim=-1)
        return self.proj((w @ v).transpose(1, 2).flatten(2))
''',
    "blocked_impl": '''
def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    lse = None
    out = None
    qi = torch.arange(q.shape[-2], device=q.device)
    for j0 in range(0, k.shape[-2], block_size):
        kb, vb = k[..., j0:j0 + block_size, :], v[..., j0:j0 + block_size, :]
        s = scale * (q @ kb.transpose(-1, -2))
        if is_causal:
            kj = torch.arange(j0, j0 + kb.shape[-2], device=q.device)
            s = s.masked_fill(kj[None, :] > qi[:, None], float("-inf"))
        tile_lse = torch.logsumexp(s, dim=-1, keepdim=True)
        ok = torch.isfinite(tile_lse)
        p = torch.where(ok, torch.exp(s - torch.where(ok, tile_lse, torch.zeros_like(tile_lse))), torch.zeros_like(s))
        tile_out = p @ vb  # the tile's own softmax average
        if lse is None:
            lse, out = tile_lse, tile_out
            continue
        new = torch.logaddexp(lse, tile_lse)
        fin = torch.isfinite(new)
        safe_new = torch.where(fin, new, torch.zeros_like(new))
        a = torch.where(fin, torch.exp(lse - safe_new), torch.zeros_like(new))
        b = torch.where(fin, torch.exp(tile_lse - safe_new), torch.zeros_like(new))
        out, lse = a * out + b * tile_out, new
    return out
''',
}
