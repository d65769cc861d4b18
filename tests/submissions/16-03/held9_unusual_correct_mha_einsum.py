"""Held-out round 9, correct: MultiHeadAttention reads in_proj_weight as a (3, H, E/H, E) view and projects each
input straight into heads with einsum (the layout string picks batch_first or not), applies the masks to the scores
of all heads with masked_fill or an addition, and takes its own softmax; no call to any attention function."""

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"mha_impl": '''
class MultiHeadAttention(nn.Module):
    """Multi-head attention with nn.MultiheadAttention's parameters, masks and layouts."""

    def __init__(self, embed_dim, num_heads, bias=True, batch_first=False):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError(f"{num_heads} heads cannot split {embed_dim} features evenly")
        self.heads, self.batch_first = num_heads, batch_first
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
        nn.init.xavier_uniform_(self.in_proj_weight)
        if bias:
            self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)

    @staticmethod
    def _masked(scores, mask):
        return scores.masked_fill(mask, float("-inf")) if mask.dtype == torch.bool else scores + mask

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        e = self.in_proj_weight.shape[1]
        h, d = self.heads, e // self.heads
        layout = "nte" if self.batch_first else "tne"
        w = self.in_proj_weight.reshape(3, h, d, e)
        b = None if self.in_proj_bias is None else self.in_proj_bias.reshape(3, h, 1, d)

        def project(x, i):
            y = torch.einsum(f"{layout},hde->nhtd", x, w[i])
            return y if b is None else y + b[i]

        q, k, v = project(query, 0), project(key, 1), project(value, 2)
        n, length, span = q.shape[0], q.shape[2], k.shape[2]
        scores = torch.einsum("nhld,nhsd->nhls", q, k) / math.sqrt(d)
        if attn_mask is not None:
            scores = self._masked(scores, attn_mask.reshape(n, h, length, span) if attn_mask.dim() == 3 else attn_mask)
        if key_padding_mask is not None:
            scores = self._masked(scores, key_padding_mask.reshape(n, 1, 1, span))
        ctx = torch.einsum("nhls,nhsd->nlhd", torch.softmax(scores, dim=-1), v).reshape(n, length, e)
        out = self.out_proj(ctx)
        return out if self.batch_first else out.transpose(0, 1)
'''}
