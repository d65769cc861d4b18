"""Known-wrong KVCache (round 25): the keys and values live in a dict created once on the class (a mutable
class attribute), and __init__ only empties it. Every cache starts empty, and sequences decoded one after the
other (a new KVCache for each) are right, but two caches in use at once share one store: create cache A and
cache B, decode a token with A, then a token with B, and B sees A's keys. The text says "Several caches in use
at once do not share anything" (goes wrong on two sequences decoded interleaved)."""

CELLS = {"kv_impl": '''
class KVCache:
    """Keys and values of the positions seen so far, (B, H, positions, D) each."""

    _store = {"k": None, "v": None}

    def __init__(self):
        self._store["k"] = None
        self._store["v"] = None

    @property
    def k(self):
        return self._store["k"]

    @property
    def v(self):
        return self._store["v"]

    def __len__(self):
        return 0 if self.k is None else self.k.shape[-2]

    def update(self, k, v):
        self._store["k"] = k if self.k is None else torch.cat([self.k, k], dim=-2)
        self._store["v"] = v if self.v is None else torch.cat([self.v, v], dim=-2)
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
        q, k, v = (z.reshape(b, t, h, e // h).transpose(1, 2) for z in self.qkv(x).chunk(3, dim=-1))
        past = 0
        if cache is not None:
            past = len(cache)
            k, v = cache.update(k, v)
        seen = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=seen)
        return self.proj(out.transpose(1, 2).reshape(b, t, e))
'''}
EXPECT = {"kv_cache": "fail"}
