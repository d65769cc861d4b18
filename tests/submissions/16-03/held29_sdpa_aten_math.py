"""Known-wrong scaled_dot_product_attention (round 29): the attention itself is PyTorch's, called as the aten
operator torch.ops.aten._scaled_dot_product_attention_math (the math back end of
F.scaled_dot_product_attention), with the causal mask, the dropout draw (passed as its dropout_mask) and the
rows with no key left done by hand around it. Values, gradients and the generator's stream all match. The
text: "Write it from tensor operations (@, torch.softmax, masked_fill, ...); do not call
F.scaled_dot_product_attention" and the essential clause "not calling PyTorch's attention" (goes wrong on
every input: it is PyTorch's attention kernel under another name; a boolean mask is turned into PyTorch's additive
one first, as F.scaled_dot_product_attention does before it calls that operator)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("""    scores = (q @ k.transpose(-2, -1)) * scale
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
""",
     """    if is_causal:
        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
    if attn_mask is not None and attn_mask.dtype == torch.bool:  # the aten op adds its mask: -inf where False
        attn_mask = torch.zeros(attn_mask.shape, dtype=q.dtype, device=q.device).masked_fill(~attn_mask, float("-inf"))
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2],
                                  attn_mask.shape[:-2] if attn_mask is not None else ())
    keep = None
    if dropout_p > 0:
        u = torch.rand(lead + (L, S), generator=generator, dtype=q.dtype, device=q.device)
        keep = u >= dropout_p
    out = torch.ops.aten._scaled_dot_product_attention_math(q, k, v, attn_mask, float(dropout_p), False, keep,
                                                              scale=float(scale))[0]
    if attn_mask is not None:
        dead = torch.isneginf(attn_mask).all(-1, keepdim=True)
        out = out.masked_fill(dead, 0.0)
    return out.expand(lead + out.shape[-2:])
"""))}
EXPECT = {"sdpa": "fail"}
