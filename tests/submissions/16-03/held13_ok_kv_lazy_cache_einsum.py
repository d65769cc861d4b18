# Correct, written differently: the cache keeps a list of chunks and concatenates them when k or v is
# read (properties), len counts positions; attention per head with einsum, an additive float mask built
# with triu on x's device, and P read before the append.
EXPECT = {"kv_cache": "pass"}
CELLS = {"kv_impl": '''
class KVCache:
    """Keys and values of the positions seen so far, (B, H, positions, D) each."""

    def __init__(self):
        self._ks, self._vs = [], []

    @property
    def k(self):
        return torch.cat(self._ks, dim=2) if self._ks else None

    @property
    def v(self):
        return torch.cat(self._vs, dim=2) if self._vs else None

    def __len__(self):
        return sum(t.shape[2] for t in self._ks)

    def update(self, k, v):
        self._ks.append(k)
        self._vs.append(v)
        return self.k, self.v


class CausalSelfAttention(nn.Module):
    """Causal multi-head self attention that can continue a sequence from a KVCache."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, cache=None):
        B, T, E = x.shape
        H = self.heads
        D = E // H
        qkv = self.qkv(x).view(B, T, 3, H, D)
        q, k, v = qkv.unbind(dim=2)                       # (B, T, H, D) each
        q, k, v = q.permute(0, 2, 1, 3), k.permute(0, 2, 1, 3), v.permute(0, 2, 1, 3)
        P = 0 if cache is None else len(cache)
        if cache is not None:
            k, v = cache.update(k, v)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(D)
        hide = torch.full((T, P + T), float("-inf"), dtype=scores.dtype, device=x.device).triu(P + 1)
        w = torch.softmax(scores + hide, dim=-1)
        out = torch.einsum("bhts,bhsd->bthd", w, v).reshape(B, T, E)
        return self.proj(out)
'''}
