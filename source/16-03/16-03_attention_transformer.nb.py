# %% [markdown]
# # 16-03 · Attention and a mini Transformer from first principles
#
# A Transformer is a short list of ideas stacked on top of each other: a softmax-weighted lookup
# (attention), run several times in parallel on slices of the embedding (heads), wrapped with layer
# normalisation, a small MLP and residual connections (the block), and fed with tokens that know where they
# sit (positions) or image patches that became tokens (a ViT). Two engineering ideas make it usable on long
# sequences: a cache of keys and values so that generating one more token does not redo the whole prefix,
# and a softmax computed a tile of keys at a time so that no `L x S` score matrix is ever stored.
#
# In this notebook you build each piece from tensor operations and check it against PyTorch's own module or
# function with the same weights.
#
# **You will build**
# 1. `scaled_dot_product_attention`: masks (boolean and additive), causal masking, a custom scale and
#    dropout from a given generator, equal to `F.scaled_dot_product_attention`.
# 2. `MultiHeadAttention`: a module that loads an `nn.MultiheadAttention` state dict and gives the same
#    output (self and cross attention, key padding, `batch_first` both ways).
# 3. `PreNormBlock`: a pre-norm Transformer block equal to `nn.TransformerEncoderLayer(norm_first=True)`.
# 4. `sinusoidal_positions` and `patch_embed`: the two ways tokens get in (text positions, image patches).
# 5. `KVCache` and `CausalSelfAttention`: decoding one token (or a few) at a time, equal to recomputing the
#    whole sequence.
# 6. `blocked_attention`: attention with an online softmax over tiles of keys.
#
# At the end, a tiny character-level Transformer is trained on a few sentences built into this notebook and
# generates text with the cache.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run right away, and
# **Validate runs only those visible checks**: "Success!" means they pass, not that you have full marks.
# When you submit, hidden checks test the same code much harder: float64 inputs of several shapes,
# broadcasting masks, fully masked rows, ties, gradients, and PyTorch's own modules loaded with the same
# weights. Heavy demos only run when you run the notebook yourself (`run_demos()` is False while grading). Keep
# the `def` and `class` lines of the skeletons as they are (the parameters' names, their order and their
# defaults): a hidden check compares them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import torch

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()

import math

import torch.nn as nn
import torch.nn.functional as F

_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. Attention is a soft dictionary lookup
#
# Each of `L` queries $q_i$ asks every one of `S` keys $k_j$ how well it matches, by a dot product. The
# scores go through a softmax over the keys, and the resulting weights average the values $v_j$:
#
# $$\mathrm{out}_i = \sum_j \mathrm{softmax}_j\!\big(s \, q_i \cdot k_j\big)\, v_j, \qquad
# s = \frac{1}{\sqrt{E}} \text{ by default, } E = \text{the size of a query}.$$
#
# Why $1/\sqrt{E}$: if the entries of $q$ and $k$ are independent with variance 1, their dot product has
# variance $E$. Without the scale, large $E$ pushes the softmax into a near one-hot regime where its
# gradient vanishes. In matrix form, for a batch of any leading shape, `scores = q @ k.transpose(-2, -1) * s`
# has shape `(..., L, S)`, and the softmax runs over the **last** dimension (the keys).
#
# **Masks** say which query-key pairs may interact. PyTorch's function takes two kinds:
#
# * a **boolean** mask, where `True` means *the pair takes part* (careful: `nn.MultiheadAttention`'s
#   `key_padding_mask` uses the opposite convention, see section 2); excluded pairs get a score of $-\infty$,
#   so their softmax weight is exactly 0;
# * a **float** mask, added to the scores (0 keeps a pair, $-\infty$ removes it, anything else biases it,
#   as ALiBi and relative position biases do).
#
# Both broadcast against `(..., L, S)`, so a `(L, S)` mask serves every batch element and head.
# **Causal** masking lets query $i$ see keys $j \le i$ only: the lower triangle of an `L x S` matrix,
# `torch.ones(L, S, dtype=torch.bool).tril()`. When `L != S` this aligns the triangle at the top left,
# which is what `F.scaled_dot_product_attention(..., is_causal=True)` does (section 5 shows when that is not
# what you want).
#
# **A row with no key left.** If a mask removes every key of some query, the softmax of a row of
# $-\infty$ is $0/0 = $ NaN. PyTorch 2.14's `F.scaled_dot_product_attention` returns **zeros** for such a row
# on every CPU path (float32 and float64, boolean or $-\infty$ float mask), and its gradient there is zero,
# not NaN (a "safe softmax"). `nn.MultiheadAttention` is less consistent: the same module returns NaN for a
# fully padded query when it computes attention weights (`need_weights=True`) and zeros when it does not.
# The cell below shows both.

# %%
_q, _k, _v = torch.randn(1, 3, 4), torch.randn(1, 5, 4), torch.randn(1, 5, 2)
_mask = torch.ones(3, 5, dtype=torch.bool)
_mask[1] = False  # query 1 may look at nothing
print("F.scaled_dot_product_attention, row 1:", F.scaled_dot_product_attention(_q, _k, _v, attn_mask=_mask)[0, 1])
_mha = nn.MultiheadAttention(4, 1, batch_first=True)
_pad = torch.ones(1, 5, dtype=torch.bool)  # True = ignore this key: every key ignored
print("nn.MultiheadAttention, need_weights=True: ", _mha(_q, _k, _k, key_padding_mask=_pad)[0][0, 0].detach())
print("nn.MultiheadAttention, need_weights=False:",
      _mha(_q, _k, _k, key_padding_mask=_pad, need_weights=False)[0][0, 0].detach())

# %% [markdown]
# **Dropout on the weights.** During training, attention dropout zeroes each weight with probability $p$
# and divides the survivors by $1 - p$, after the softmax and before the product with `v`.
# `F.scaled_dot_product_attention` draws its mask from the global generator in an order of its own, so a
# check cannot reproduce it; your version takes an explicit `torch.Generator` and draws in the order fixed
# below, which makes it reproducible and checkable.
#
# The heat maps show the weights of 8 random queries and keys, plain and with a causal mask (a demo).

# %%
if run_demos():
    import matplotlib.pyplot as plt

    q8, k8 = torch.randn(8, 16), torch.randn(8, 16)
    plain = torch.softmax(q8 @ k8.T / 4.0, dim=-1)
    causal = torch.softmax((q8 @ k8.T / 4.0).masked_fill(~torch.ones(8, 8, dtype=torch.bool).tril(), float("-inf")), -1)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    for ax, w, title in ((axes[0], plain, "softmax(q k^T / sqrt(16))"), (axes[1], causal, "with a causal mask")):
        ax.imshow(w, cmap="viridis", vmin=0, vmax=1)
        ax.set_xlabel("key j")
        ax.set_ylabel("query i")
        ax.set_title(title)
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 1 · `scaled_dot_product_attention` (5 points)
#
# Write it from tensor operations (`@`, `torch.softmax`, `masked_fill`, ...); do not call
# `F.scaled_dot_product_attention` or `nn.MultiheadAttention`.
#
# * The arguments come in the order of the signature in the cell below,
#   `scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0, generator=None)`
#   (not `F.scaled_dot_product_attention`'s), and a caller may pass any of them by position.
# * `q` has shape `(..., L, E)`, `k` has shape `(..., S, E)` and `v` has shape `(..., S, Ev)` with `S >= 1`;
#   their leading dimensions broadcast against each other as in `torch.matmul`, and the result has shape
#   `(..., L, Ev)` (the broadcast leading shape) and the dtype of `q` (float16 included). `L` and the leading
#   dimensions may be 0 (no query, an empty batch): the result is then empty, still of the broadcast leading shape
#   (for `L = 0` PyTorch 2.14 keeps `q`'s own leading shape instead; the checks expect the broadcast one).
# * The scores are `q @ k.transpose(-2, -1)` times `scale` (any number, zero or negative too), which defaults to
#   `1 / sqrt(E)`.
# * `attn_mask` is `None`, a boolean tensor (`True`: the pair takes part) or a float tensor added to the
#   scores; it broadcasts against `(..., L, S)`.
# * With `is_causal=True`, query `i` sees key `j` only when `j <= i` (the top-left triangle, as in PyTorch),
#   whatever the scale: for a scale of 0 or below, where PyTorch 2.14's CPU kernel returns NaN with
#   `is_causal=True`, the result is what the boolean mask `torch.ones(L, S, dtype=torch.bool).tril()` gives.
#   Passing both `attn_mask` and `is_causal=True` raises `ValueError`.
# * A query whose keys are all masked out gets an output row of zeros, and gradients that are zeros too, never
#   NaN, as PyTorch 2.14 returns.
# * With `dropout_p > 0`, after the softmax draw `u = torch.rand(w.shape, generator=generator, dtype=w.dtype,
#   device=w.device)` once per call, where `w` is the weight tensor of shape `(..., L, S)`; keep the weights
#   where `u >= dropout_p`, set the others to 0 and divide the kept ones by `1 - dropout_p`. This holds in every
#   grad mode, under `torch.no_grad()` and `torch.inference_mode()` too: `dropout_p`, not autograd, says whether to
#   drop. With
#   `generator=None` that draw comes from the global generator (`torch.rand`'s default, the one
#   `torch.manual_seed` seeds) of the inputs' device: pass `generator=None` on to `torch.rand`, not
#   `torch.default_generator`, which is the CPU's (on a GPU, `torch.rand` refuses a CPU generator).
#   With `dropout_p == 0` draw nothing (the generator's state is left alone).
# * Every tensor you create (the causal mask, the dropout draw) is on the inputs' device (`device=q.device`), so
#   the function runs on a GPU as on the CPU.
# * The result is differentiable with respect to `q`, `k`, `v` and a float mask, with PyTorch's gradients.
#
# Essential clauses (with the course's essential policy on, the task scores zero when one of them fails): the
# values and shapes against PyTorch's, the boolean mask, the causal mask, and not calling PyTorch's attention.

# %% [solution] id=sdpa_impl
def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0,
                                 generator=None):
    """softmax(q @ k^T * scale + mask) @ v over the last two dimensions, as F.scaled_dot_product_attention.

    dropout_p: in [0, 1); weights are dropped with the generator's uniform draw described above.
    """
    ### BEGIN SOLUTION
    if attn_mask is not None and is_causal:
        raise ValueError("pass either attn_mask or is_causal=True, not both")
    L, S = q.shape[-2], k.shape[-2]
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    scores = (q @ k.transpose(-2, -1)) * scale
    if is_causal:
        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    dead = torch.isneginf(scores).all(dim=-1, keepdim=True)  # rows with no key left
    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)
    if dropout_p > 0:
        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)
        w = w * (u >= dropout_p) / (1.0 - dropout_p)
    return w @ v
    ### END SOLUTION


# %% [tests] id=sdpa_tests points=5
_q, _k, _v = torch.randn(2, 3, 4, dtype=torch.float64), torch.randn(2, 5, 4, dtype=torch.float64), \
    torch.randn(2, 5, 6, dtype=torch.float64)
expect_close(scaled_dot_product_attention(_q, _k, _v), F.scaled_dot_product_attention(_q, _k, _v),
             "scaled_dot_product_attention(q, k, v) with q (2, 3, 4), k (2, 5, 4), v (2, 5, 6)")
expect_close(scaled_dot_product_attention(_q, _k, _v, is_causal=True),
             F.scaled_dot_product_attention(_q, _k, _v, is_causal=True), "the same with is_causal=True")
_m = torch.rand(3, 5) > 0.3
expect_close(scaled_dot_product_attention(_q, _k, _v, attn_mask=_m),
             F.scaled_dot_product_attention(_q, _k, _v, attn_mask=_m), "the same with a boolean (3, 5) mask")
_m[1] = False
expect_close(scaled_dot_product_attention(_q, _k, _v, attn_mask=_m)[:, 1], torch.zeros(2, 6, dtype=torch.float64),
             "the output of a query whose keys are all masked (zeros, as PyTorch)")
### BEGIN HIDDEN TESTS
run_hidden("16-03", "sdpa", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Many heads, one matrix multiply
#
# Multi-head attention projects the inputs three times, `Q = query W_q^T + b_q` and likewise `K` and `V`,
# splits the `E` features of each into `H` heads of `E / H` features, runs attention in every head
# independently, concatenates the heads back and applies an output projection. Heads let the layer attend to
# several things at once for the cost of one attention of width `E`.
#
# `nn.MultiheadAttention` stores the three input projections stacked in one `(3E, E)` matrix
# `in_proj_weight` (rows `0:E` for queries, `E:2E` for keys, `2E:3E` for values) with a `(3E,)`
# `in_proj_bias`, and the output projection as the `nn.Linear` `out_proj`. The head split is a reshape of
# the last dimension, `(..., E) -> (..., H, E/H)`: head `h` owns features `h*E/H` to `(h+1)*E/H`. Inside a
# head the scale is `1/sqrt(E/H)`, the head's own width, because that is the length of the vectors whose dot
# product it takes.
#
# Two mask conventions live here, and they point opposite ways from section 1's boolean mask:
#
# * `key_padding_mask`, shape `(N, S)`: `True` marks a key to **ignore** (a padding token);
# * `attn_mask`, shape `(L, S)` or `(N * H, L, S)`: `True` marks a pair that is **not allowed**.
#
# A float version of either is added to the scores. By default the layout is sequence first,
# `(L, N, E)`; with `batch_first=True` it is `(N, L, E)`.
#
# The cell below checks the layout claim: a query projection computed by hand from the first `E` rows equals
# the one the module uses (it checks the whole layer's output instead in exercise 2).

# %%
_mha = nn.MultiheadAttention(8, 2, batch_first=True)
_x = torch.randn(1, 3, 8)
_w_q, _w_k, _w_v = _mha.in_proj_weight.chunk(3)
print("in_proj_weight", tuple(_mha.in_proj_weight.shape), "-> three blocks of", tuple(_w_q.shape))
print("state dict keys:", list(_mha.state_dict()))

# %% [markdown]
# ### Exercise 2 · `MultiHeadAttention` (5 points)
#
# Build the layer from tensor operations; you may call your `scaled_dot_product_attention` or
# `F.scaled_dot_product_attention` for the attention itself, but not `nn.MultiheadAttention` or
# `F.multi_head_attention_forward`.
#
# * `MultiHeadAttention(embed_dim, num_heads, bias=True, batch_first=False)` raises `ValueError` when
#   `embed_dim` is not a multiple of `num_heads`.
# * Its parameters and state dict keys are those of `nn.MultiheadAttention(embed_dim, num_heads, bias=bias)`:
#   `in_proj_weight` `(3E, E)`, `in_proj_bias` `(3E,)` and `out_proj` an `nn.Linear(E, E)`, without the biases
#   when `bias=False`. So `load_state_dict(torch_mha.state_dict())` works, and gradients reach these parameters.
# * `forward(query, key, value, key_padding_mask=None, attn_mask=None)` returns only the output (what
#   `nn.MultiheadAttention` returns first) for self attention (`query is key is value`) and cross attention
#   (keys and values from another sequence, whose length `S` may differ from the query's or equal it), with batched
#   inputs in the layout set by `batch_first`.
# * The masks follow `nn.MultiheadAttention`'s conventions above, boolean or float, alone or together (then both
#   apply); every query keeps at least one key (the checks never mask a whole row here).
# * Every tensor `forward` creates (masks, zero biases) is on the inputs' device, so the layer runs on a GPU too,
#   also after a call on the CPU and `.to(device)`: nothing kept on the module from a call on another device is
#   reused.
#
# Essential clauses (with the course's essential policy on, the task scores zero when one of them fails): self
# attention against `nn.MultiheadAttention`, the key padding mask, and not calling `nn.MultiheadAttention`.

# %% [solution] id=mha_impl
class MultiHeadAttention(nn.Module):
    """Multi-head attention with nn.MultiheadAttention's parameters, masks and layouts."""

    def __init__(self, embed_dim, num_heads, bias=True, batch_first=False):
        super().__init__()
        ### BEGIN SOLUTION
        if embed_dim % num_heads:
            raise ValueError(f"embed_dim {embed_dim} is not a multiple of num_heads {num_heads}")
        self.embed_dim, self.num_heads, self.batch_first = embed_dim, num_heads, batch_first
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim)) if bias else None
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        nn.init.xavier_uniform_(self.in_proj_weight)
        ### END SOLUTION

    def forward(self, query, key, value, key_padding_mask=None, attn_mask=None):
        ### BEGIN SOLUTION
        if not self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        n, L, e = query.shape
        S, h = key.shape[1], self.num_heads
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3) if self.in_proj_bias is not None else (None,) * 3

        def heads(x, w, b, length):
            return F.linear(x, w, b).reshape(n, length, h, e // h).transpose(1, 2)  # (N, H, len, E/H)

        q, k, v = heads(query, w_q, b_q, L), heads(key, w_k, b_k, S), heads(value, w_v, b_v, S)
        bias = torch.zeros(n, h, L, S, dtype=q.dtype, device=q.device)
        if attn_mask is not None:
            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)
            bias = bias.masked_fill(m, float("-inf")) if m.dtype == torch.bool else bias + m
        if key_padding_mask is not None:
            m = key_padding_mask[:, None, None, :]
            bias = bias.masked_fill(m, float("-inf")) if m.dtype == torch.bool else bias + m
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        out = self.out_proj(out.transpose(1, 2).reshape(n, L, e))
        return out if self.batch_first else out.transpose(0, 1)
        ### END SOLUTION


# %% [tests] id=mha_tests points=5
_ref = nn.MultiheadAttention(8, 2, batch_first=True, dtype=torch.float64)
_mine = MultiHeadAttention(8, 2, batch_first=True).double()
expect_equal(sorted(_mine.state_dict()), sorted(_ref.state_dict()), "the state dict keys of MultiHeadAttention(8, 2)")
with torch.no_grad():
    _ref.in_proj_bias.normal_()
_mine.load_state_dict(_ref.state_dict())
_x, _y = torch.randn(2, 3, 8, dtype=torch.float64), torch.randn(2, 5, 8, dtype=torch.float64)
expect_close(_mine(_x, _x, _x), _ref(_x, _x, _x)[0], "self attention on x (2, 3, 8), batch_first=True")
expect_close(_mine(_x, _y, _y), _ref(_x, _y, _y)[0], "cross attention, query (2, 3, 8), key = value (2, 5, 8)")
_pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
expect_close(_mine(_x, _y, _y, key_padding_mask=_pad), _ref(_x, _y, _y, key_padding_mask=_pad)[0],
             "cross attention with a key_padding_mask (True = ignore that key)")
### BEGIN HIDDEN TESTS
run_hidden("16-03", "mha", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. The block: normalise, attend, add; normalise, transform, add
#
# A Transformer block adds two sub-layers to a residual stream `x`. The original paper normalised *after*
# each addition (post-norm, `x = norm(x + sublayer(x))`); most models trained today normalise the input of
# each sub-layer instead and leave the residual path untouched (pre-norm), which keeps gradients well
# scaled through deep stacks without a careful warm-up:
#
# ```
# x = x + self_attn(norm1(x))                          # self attention: query = key = value = norm1(x)
# x = x + linear2(activation(linear1(norm2(x))))       # the feed-forward MLP, E -> dim_feedforward -> E
# ```
#
# That is `nn.TransformerEncoderLayer(..., norm_first=True)`. Its sub-modules are named `self_attn`,
# `linear1`, `linear2`, `norm1` and `norm2`, and with `dropout=0.0` the layer is deterministic, so a block of
# your own that uses the same names can load its state dict and must give the same output.

# %% [markdown]
# ### Exercise 3 · `PreNormBlock` (4 points)
#
# Do not use `nn.TransformerEncoderLayer` or `nn.TransformerEncoder`. Inside, `self_attn` may be your
# `MultiHeadAttention` or an `nn.MultiheadAttention`; `nn.Linear` and `nn.LayerNorm` are fine.
#
# * `PreNormBlock(d_model, nhead, dim_feedforward, activation="relu", layer_norm_eps=1e-5, batch_first=False)`
#   has the sub-modules and state dict keys of `nn.TransformerEncoderLayer` with the same arguments and
#   `norm_first=True`; `activation` is `"relu"` or `"gelu"` (the exact, erf-based GELU).
# * `forward(src, src_mask=None, src_key_padding_mask=None)` computes the two pre-norm residual steps above and
#   equals `nn.TransformerEncoderLayer(..., dropout=0.0, norm_first=True)` loaded with the same state dict,
#   masks included (the conventions of `nn.MultiheadAttention`), in both layouts.
# * As in exercise 2, every query keeps at least one key (the checks never pad a whole sequence), so a
#   `MultiHeadAttention` that gives NaN for a row with no key left is fine here.
# * Gradients reach every parameter and the input, as PyTorch's layer's do.
#
# Essential clauses (with the course's essential policy on, the task scores zero when one of them fails): the
# output against `nn.TransformerEncoderLayer`, and not using it.

# %% [solution] id=block_impl
class PreNormBlock(nn.Module):
    """x + attn(norm1(x)), then x + mlp(norm2(x)), with nn.TransformerEncoderLayer's parameter names."""

    def __init__(self, d_model, nhead, dim_feedforward, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False):
        super().__init__()
        ### BEGIN SOLUTION
        self.self_attn = MultiHeadAttention(d_model, nhead, batch_first=batch_first)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps)
        self.activation = {"relu": F.relu, "gelu": F.gelu}[activation]
        ### END SOLUTION

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        ### BEGIN SOLUTION
        h = self.norm1(src)
        x = src + self.self_attn(h, h, h, key_padding_mask=src_key_padding_mask, attn_mask=src_mask)
        return x + self.linear2(self.activation(self.linear1(self.norm2(x))))
        ### END SOLUTION


# %% [tests] id=block_tests points=4
_ref = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=True, batch_first=True, dtype=torch.float64)
_mine = PreNormBlock(8, 2, 16, batch_first=True).double()
expect_equal(sorted(_mine.state_dict()), sorted(_ref.state_dict()), "the state dict keys of PreNormBlock(8, 2, 16)")
_mine.load_state_dict(_ref.state_dict())
_x = torch.randn(2, 5, 8, dtype=torch.float64)
expect_close(_mine(_x), _ref.train()(_x), "PreNormBlock(8, 2, 16, batch_first=True)(x) for x (2, 5, 8)")
### BEGIN HIDDEN TESTS
run_hidden("16-03", "block", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. How tokens get in: positions and patches
#
# Attention is blind to order: permute the keys and values together and the output does not change. A
# sequence model therefore adds a position code to each token embedding. The sinusoidal code of the original
# Transformer gives position `p` a vector whose pairs of columns rotate at geometric frequencies:
#
# $$\mathrm{PE}[p, 2i] = \sin\!\big(p \,/\, \mathrm{base}^{2i/d}\big), \qquad
# \mathrm{PE}[p, 2i+1] = \cos\!\big(p \,/\, \mathrm{base}^{2i/d}\big), \qquad \mathrm{base} = 10000.$$
#
# Each (sin, cos) pair is a point on a circle, so moving from `p` to `p + k` is a rotation that does not
# depend on `p`: relative offsets are linear functions of the code. Learned position embeddings (an
# `nn.Embedding(max_len, d)`) are the alternative; they cannot go past `max_len`.
#
# **Images as tokens.** A Vision Transformer cuts an image `(C, H, W)` into non-overlapping `ph x pw` patches,
# flattens each and projects it linearly to `E` features. Cutting and flattening is pure indexing, a
# `reshape` and a `permute`; the projection is one matrix multiply. The whole thing equals a convolution with
# kernel size and stride equal to the patch size, which is how libraries write it: the convolution's weight
# `(E, C, ph, pw)` flattened to `(E, C*ph*pw)` is the projection matrix, if each patch is flattened in the
# same `(C, ph, pw)` order. The heat map (a demo) shows 64 positions of a 32-dimensional code.

# %%
if run_demos():
    import matplotlib.pyplot as plt

    pos = torch.arange(64, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, 32, 2, dtype=torch.float64) / 32)
    code = torch.stack([torch.sin(pos * freq), torch.cos(pos * freq)], dim=-1).flatten(1)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    axes[0].imshow(code.T, aspect="auto", cmap="RdBu")
    axes[0].set_xlabel("position p")
    axes[0].set_ylabel("column")
    axes[0].set_title("sinusoidal position code")
    axes[1].imshow(code @ code.T, cmap="viridis")
    axes[1].set_title("dot products between positions: they depend on p - p'")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 4 · `sinusoidal_positions` and `patch_embed` (4 points)
#
# * `sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32)` returns the `(length, d_model)`
#   table above for positions `0 .. length - 1`: sines in the even columns, cosines in the odd ones, for any
#   positive `base` (such as 12345.678, not only 10000). Compute the angles in float64, the base included (use it
#   as the Python number given, never a float32 tensor of it), and cast the result to `dtype` at the end (float32
#   angles lose accuracy for positions in the thousands). An odd `d_model` raises `ValueError`.
# * `patch_embed(images, weight, bias=None)` takes images `(N, C, H, W)`, a weight `(E, C, ph, pw)` and a bias
#   `(E,)` or `None`, and returns `(N, P, E)` with `P = (H // ph) * (W // pw)` patches in row-major order
#   (left to right, then top to bottom); rows and columns past the last whole patch are dropped (an image holds
#   at least one whole patch, `H >= ph` and `W >= pw`, as `F.conv2d` requires). It equals
#   `F.conv2d(images, weight, bias, stride=(ph, pw)).flatten(2).transpose(1, 2)` without computing any
#   convolution (no `conv2d`, `nn.Conv2d` or `F.unfold`), for images and weights in any memory layout.
#   Every tensor it creates (a zero bias, say) is on the images' device (`device=images.device`), so it runs on a
#   GPU too, with or without a bias.
# * Both are differentiable where their inputs are (the images, the weight and the bias).
#
# Essential clauses (with the course's essential policy on, the task scores zero when one of them fails): the
# position table's values, and the patches against `F.conv2d`.

# %% [solution] id=embed_impl
def sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32):
    """The (length, d_model) sinusoidal position table: sin in even columns, cos in odd columns."""
    ### BEGIN SOLUTION
    if d_model % 2:
        raise ValueError(f"d_model must be even, got {d_model}")
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angle = pos * freq
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, d_model).to(dtype)
    ### END SOLUTION


def patch_embed(images, weight, bias=None):
    """Non-overlapping patches of images (N, C, H, W) projected by weight (E, C, ph, pw): (N, P, E)."""
    ### BEGIN SOLUTION
    n, c, H, W = images.shape
    e, _, ph, pw = weight.shape
    gh, gw = H // ph, W // pw
    x = images[:, :, :gh * ph, :gw * pw].reshape(n, c, gh, ph, gw, pw)
    patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, c * ph * pw)
    out = patches @ weight.reshape(e, -1).T
    return out + bias if bias is not None else out
    ### END SOLUTION


# %% [tests] id=embed_tests points=4
_pe = sinusoidal_positions(6, 4, dtype=torch.float64)
expect_close(_pe[:, 0], torch.sin(torch.arange(6.0, dtype=torch.float64)), "sinusoidal_positions(6, 4)[:, 0]")
expect_close(_pe[:, 3], torch.cos(torch.arange(6.0, dtype=torch.float64) / 100.0), "sinusoidal_positions(6, 4)[:, 3]")
_img, _w, _b = torch.randn(2, 3, 8, 8), torch.randn(5, 3, 4, 4), torch.randn(5)
expect_close(patch_embed(_img, _w, _b), F.conv2d(_img, _w, _b, stride=4).flatten(2).transpose(1, 2),
             "patch_embed(images (2, 3, 8, 8), weight (5, 3, 4, 4), bias)", atol=1e-5)
### BEGIN HIDDEN TESTS
run_hidden("16-03", "embed", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Generating one token at a time: the KV cache
#
# A decoder generates a sequence by feeding its own output back in. Without care, step `t` recomputes the
# keys and values of all `t` earlier tokens, although with causal attention they never change: token `j`'s
# key depends on token `j` only. A **KV cache** keeps them. Each step projects the new tokens only, appends
# their keys and values to the cache, and lets the new queries attend to everything cached. The work per
# step drops from the whole prefix to the new tokens (plus one pass over the cached keys).
#
# The mask needs thought. When the cache already holds `P` tokens and `T` new ones arrive, new token `t`
# (absolute position `P + t`) may see keys `0 .. P + t`: a triangle aligned at the **bottom right** of the
# `T x (P + T)` score matrix. `is_causal=True` in `F.scaled_dot_product_attention` aligns it at the top left,
# so with a non-empty cache it hides almost everything; build the mask yourself (for `T = 1` no mask is
# needed at all). And read `P` before you append: after the append the cache holds `P + T`.

# %% [markdown]
# ### Exercise 5 · `KVCache` and `CausalSelfAttention` (4 points)
#
# * `KVCache()` starts empty; `len(cache)` is the number of positions it holds, and `cache.k` and `cache.v` are
#   the keys and values held, `(B, H, len(cache), D)` each (`None` while empty).
#   `cache.update(k, v)` appends `k` and `v` of shape `(B, H, T, D)` along the positions and returns all keys
#   and values held after the append.
# * `CausalSelfAttention(embed_dim, num_heads)` has two `nn.Linear(E, E)`-style sub-modules: `qkv`, an
#   `nn.Linear(E, 3E)` whose output is split into queries, keys and values in that order (`E` features each,
#   then `H` heads of `E / H` in the layout of section 2), and `proj`, the output `nn.Linear(E, E)`.
# * `forward(x, cache=None)` takes `x` of shape `(B, T, E)`. There is no maximum length: a sequence, or a
#   cache, may hold a thousand positions or more, so build no mask of a fixed size in advance. Without a cache
#   it is causal self attention over `x`. With a cache holding `P` earlier positions, `x` holds the `T` tokens
#   that come next: their keys and values are appended to the cache, and token `t` attends to the `P` cached
#   positions and to new tokens `0 .. t`. The result, `(B, T, E)`, equals rows `P .. P + T - 1` of `forward` on
#   the whole sequence, for any split of the sequence into steps (one token at a time, or chunks of any size).
# * Several caches in use at once do not share anything.
# * The masks `forward` builds are on `x`'s device (`device=x.device`), so decoding runs on a GPU too, also after
#   a call on the CPU and `.to(device)`: no mask kept on the module from a call on another device is reused.
#
# Essential clauses (with the course's essential policy on, the task scores zero when one of them fails): causal
# self attention without a cache, and decoding one token at a time with a cache.

# %% [solution] id=kv_impl
class KVCache:
    """Keys and values of the positions seen so far, (B, H, positions, D) each."""

    def __init__(self):
        ### BEGIN SOLUTION
        self.k = None
        self.v = None
        ### END SOLUTION

    def __len__(self):
        ### BEGIN SOLUTION
        return 0 if self.k is None else self.k.shape[-2]
        ### END SOLUTION

    def update(self, k, v):
        ### BEGIN SOLUTION
        self.k = k if self.k is None else torch.cat([self.k, k], dim=-2)
        self.v = v if self.v is None else torch.cat([self.v, v], dim=-2)
        return self.k, self.v
        ### END SOLUTION


class CausalSelfAttention(nn.Module):
    """Causal multi-head self attention that can continue a sequence from a KVCache."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        ### BEGIN SOLUTION
        self.num_heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)
        ### END SOLUTION

    def forward(self, x, cache=None):
        ### BEGIN SOLUTION
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
        ### END SOLUTION


# %% [tests] id=kv_tests points=4
_attn = CausalSelfAttention(8, 2).double()
_x = torch.randn(2, 6, 8, dtype=torch.float64)
_full = _attn(_x)
_cache = KVCache()
_steps = [_attn(_x[:, :3], _cache)] + [_attn(_x[:, i:i + 1], _cache) for i in range(3, 6)]
expect_equal(len(_cache), 6, "len(cache) after 3 + 1 + 1 + 1 tokens")
expect_close(torch.cat(_steps, dim=1), _full, "CausalSelfAttention with a KVCache, 3 tokens then 1 at a time")
### BEGIN HIDDEN TESTS
run_hidden("16-03", "kv_cache", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Attention without the score matrix: an online softmax
#
# Plain attention stores the `(..., L, S)` scores and weights: for 32 heads and `L = S = 32768` that is 32
# billion numbers per sequence. FlashAttention never stores them. It reads the keys a tile of `b` at a time
# and keeps, for each query, three running quantities: the largest score so far `m`, the softmax denominator
# `l` relative to `m`, and the weighted sum of values `acc` relative to `m`. For a new tile with scores `s`
# (shape `(..., L, b)`):
#
# ```
# m_new = maximum(m, s.max(-1))
# c     = exp(m - m_new)                  # the old sums were relative to m: rescale them
# p     = exp(s - m_new)
# l     = c * l + p.sum(-1)
# acc   = c * acc + p @ v_tile
# m     = m_new
# ```
#
# and at the end `out = acc / l`. Because every exponent is taken relative to the running maximum, nothing
# overflows, and the result is exactly the softmax average, only summed in another order. Forgetting the
# rescale `c` is the classic mistake: the result is right only when the maximum never grows. Masked keys
# score $-\infty$; a query that has seen only masked keys so far has `m = -inf`, and `exp(-inf - (-inf))` is
# NaN, so the rescale must treat that case (the factor is then irrelevant: `l` and `acc` are still 0).
#
# The largest thing held at once is one tile of scores, `(..., L, b)`, independent of `S`. On a GPU the tile
# also stays in fast on-chip memory, which is where FlashAttention's speed comes from; the demo after the
# exercise measures the memory side on the CPU.

# %% [markdown]
# ### Exercise 6 · `blocked_attention` (4 points)
#
# * `blocked_attention(q, k, v, block_size, is_causal=False, scale=None)` takes `q` `(..., L, E)`, `k`
#   `(..., S, E)` and `v` `(..., S, Ev)` with the same leading dimensions, in any memory layout (a head split made
#   with `transpose(1, 2)` included), `S >= 1` and `block_size >= 1` (`L` and the leading dimensions may be 0:
#   the result is then empty), and returns what
#   `F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)` returns, within `1e-10`
#   (absolute and relative) in float64 and `1e-4` in float32, scores in the hundreds included.
#   With `is_causal=True` and a scale of 0 or below, where PyTorch 2.14's CPU kernel returns NaN, it returns
#   what `F.scaled_dot_product_attention` gives with the boolean mask `torch.ones(L, S, dtype=torch.bool).tril()`
#   instead (the causal mask removes pairs from the scaled scores).
# * It reads the keys and values once, in consecutive tiles of `block_size` positions (the last tile may be
#   shorter), with the online softmax above (no first pass for the maximum: each score is computed once), and
#   never creates a tensor with `L * S` or more elements: nothing as large as the full score matrix of even one
#   head. The tiles are yours, written from PyTorch's tensor operations: a call of PyTorch's own attention
#   (`F.scaled_dot_product_attention`, whose kernels tile in their own way) fails this clause, and so does an
#   operator of your own registered with `torch.library` (no check can see inside it).
# * Causal masking is PyTorch's (top-left triangle), and gradients with respect to `q`, `k` and `v` match
#   PyTorch's.
# * Every tensor it creates (the running values, the positions for the causal test) is on `q`'s device.
#
# Essential clauses (with the course's essential policy on, the task scores zero when one of them fails): the
# values against PyTorch's, the causal mask, and never creating a tensor as large as the score matrix.

# %% [solution] id=blocked_impl
def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    """Attention over tiles of block_size keys with a running max, denominator and accumulator."""
    ### BEGIN SOLUTION
    L, S = q.shape[-2], k.shape[-2]
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype, device=q.device)
    l = torch.zeros_like(m)
    acc = torch.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype, device=q.device)
    rows = torch.arange(L, device=q.device)[:, None]
    for start in range(0, S, block_size):
        stop = min(start + block_size, S)
        s = (q @ k[..., start:stop, :].transpose(-2, -1)) * scale
        if is_causal:
            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        safe = torch.where(torch.isneginf(m_new), torch.zeros_like(m_new), m_new)
        c = torch.exp(m - safe)
        p = torch.exp(s - safe)
        l = c * l + p.sum(dim=-1, keepdim=True)
        acc = c * acc + p @ v[..., start:stop, :]
        m = m_new
    return acc / l
    ### END SOLUTION


# %% [tests] id=blocked_tests points=4
_q, _k, _v = torch.randn(2, 5, 4, dtype=torch.float64), torch.randn(2, 11, 4, dtype=torch.float64), \
    torch.randn(2, 11, 3, dtype=torch.float64)
for _b in (1, 4, 11, 16):
    expect_close(blocked_attention(_q, _k, _v, _b), F.scaled_dot_product_attention(_q, _k, _v),
                 f"blocked_attention(q (2, 5, 4), k (2, 11, 4), v (2, 11, 3), block_size={_b})")
expect_close(blocked_attention(_q, _k, _v, 3, is_causal=True), F.scaled_dot_product_attention(_q, _k, _v, is_causal=True),
             "blocked_attention(..., block_size=3, is_causal=True)")
expect(torch.isfinite(blocked_attention(_q * 300, _k, _v, 4)).all(), "a finite result for scores in the hundreds")
### BEGIN HIDDEN TESTS
run_hidden("16-03", "blocked", globals())
### END HIDDEN TESTS

# %% [markdown]
# ### Demo: memory against sequence length
#
# A dispatch mode sees every tensor an operation creates. Below it records the largest one while plain
# attention and `blocked_attention` (tiles of 64 keys) run on one head with `L = 256` queries and a growing
# number of keys `S`. Plain attention's largest tensor is the `L x S` score matrix and grows with `S`;
# the blocked version's stays at one `L x 64` tile, whatever `S` is.

# %%
from torch.utils._python_dispatch import TorchDispatchMode


class LargestTensor(TorchDispatchMode):
    """Records the number of elements of the largest tensor any operation creates."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (list, tuple)) else [out]:
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return out


if run_demos():
    import matplotlib.pyplot as plt

    lengths = [256, 512, 1024, 2048, 4096, 8192]
    sizes = {"plain (scores L x S)": [], "blocked, tiles of 64": []}
    for s_len in lengths:
        q1, k1, v1 = torch.randn(1, 256, 32), torch.randn(1, s_len, 32), torch.randn(1, s_len, 32)
        for name, fn in (("plain (scores L x S)", lambda: scaled_dot_product_attention(q1, k1, v1)),
                         ("blocked, tiles of 64", lambda: blocked_attention(q1, k1, v1, 64))):
            with LargestTensor() as probe:
                fn()
            sizes[name].append(probe.largest * 4 / 2**20)
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for name, mib in sizes.items():
        ax.plot(lengths, mib, "o-", label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("number of keys S (L = 256 queries, float32)")
    ax.set_ylabel("largest tensor created (MiB)")
    ax.set_title("The online softmax never holds the score matrix")
    ax.legend()
    plt.tight_layout()
    plt.show()
    for name, mib in sizes.items():
        print(f"{name:>22}: " + ", ".join(f"{x:.2f}" for x in mib) + " MiB")

# %% [markdown]
# ### Demo: a character-level Transformer on a tiny corpus
#
# The pieces together: token embeddings plus `sinusoidal_positions`, one pre-norm block whose attention is
# your `CausalSelfAttention`, a final `LayerNorm` and a linear head, trained for 300 steps to predict the
# next character of the sentences below. The model then continues a prompt greedily twice, recomputing the
# whole sequence at every step and with a `KVCache`: the two texts agree, and the cached run is faster (the
# gap grows with the length of the text).

# %%
CORPUS = (
    "attention is a soft lookup. the query asks, the keys answer, the values are averaged. "
    "a mask hides the future. a head is a slice of the embedding. a block adds attention and an mlp "
    "to the residual stream. the cache keeps the keys of the past so the next token is cheap. "
) * 4


class TinyGPT(nn.Module):
    """Embeddings + positions, causal self attention with a cache, an MLP, and a head over characters."""

    def __init__(self, vocab, d=64, heads=4, max_len=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.register_buffer("pos", sinusoidal_positions(max_len, d))
        self.norm1, self.norm2, self.norm_out = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, idx, cache=None, start=0):
        x = self.embed(idx) + self.pos[start:start + idx.shape[1]]
        x = x + self.attn(self.norm1(x), cache)
        x = x + self.mlp(self.norm2(x))
        return self.head(self.norm_out(x))


if run_demos():
    import time

    import matplotlib.pyplot as plt
    from tqdm.auto import tqdm

    chars = sorted(set(CORPUS))
    data = torch.tensor([chars.index(c) for c in CORPUS])
    g = torch.Generator().manual_seed(0)
    model = TinyGPT(len(chars)).to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    losses = []
    for step in tqdm(range(300), desc="training"):
        starts = torch.randint(0, len(data) - 65, (32,), generator=g)
        batch = torch.stack([data[s:s + 65] for s in starts]).to(DEVICE)
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, len(chars)), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

    @torch.no_grad()
    def generate(prompt, n, use_cache):
        idx = torch.tensor([[chars.index(c) for c in prompt]], device=DEVICE)
        cache = KVCache() if use_cache else None
        logits = model(idx, cache)
        for _ in range(n):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            idx = torch.cat([idx, nxt], dim=1)
            logits = model(nxt, cache, start=idx.shape[1] - 1) if use_cache else model(idx)
        return "".join(chars[i] for i in idx[0].tolist())

    model.eval()
    for use_cache in (False, True):
        t0 = time.perf_counter()
        text = generate("the cache ", 150, use_cache)
        print(f"{'with' if use_cache else 'without'} cache ({time.perf_counter() - t0:.2f} s): {text!r}")
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.plot(losses)
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy (nats)")
    ax.set_title("next-character loss of the tiny Transformer")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ## What to remember
#
# * Attention is `softmax(q k^T * scale + mask) v` over the keys (the last dimension), with
#   `scale = 1/sqrt(head width)`. Boolean masks in `F.scaled_dot_product_attention` mean "take part";
#   `nn.MultiheadAttention`'s boolean masks mean "ignore". A row with no key left must give 0, not NaN, in the
#   forward and the backward pass.
# * Heads are a reshape of the feature dimension; `nn.MultiheadAttention` keeps its three projections stacked
#   in `in_proj_weight`. Pre-norm blocks normalise the input of each sub-layer and leave the residual path
#   alone.
# * Sinusoidal positions interleave sin and cos at geometric frequencies; a ViT patch embedding is a reshape,
#   a permute and one matrix multiply, the same as a strided convolution.
# * A KV cache turns each decoding step into work on the new tokens only; its causal mask is aligned at the
#   bottom right. An online softmax keeps a running max, denominator and accumulator, rescales them when the
#   max grows, and never holds the `L x S` scores.
