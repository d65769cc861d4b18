"""Known-wrong scaled_dot_product_attention (held-out round 19, masks x the sign of the scale): the boolean and
causal masks are filled into the raw products q @ k^T with -inf and the scale is applied afterwards (a float
mask is still added after scaling). For a positive scale nothing changes; for a negative scale the removed
pairs become +inf and for a scale of 0 they become NaN, where the text says that with is_causal=True query i
sees key j only when j <= i "whatever the scale", and a boolean mask's excluded pairs weigh exactly 0."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    scores = (q @ k.transpose(-2, -1)) * scale\n"
     "    if is_causal:\n"
     "        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n"
     "    if attn_mask is not None:\n"
     "        if attn_mask.dtype == torch.bool:\n"
     "            scores = scores.masked_fill(~attn_mask, float(\"-inf\"))\n"
     "        else:\n"
     "            scores = scores + attn_mask\n",
     "    scores = q @ k.transpose(-2, -1)\n"
     "    if is_causal:\n"
     "        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n"
     "    if attn_mask is not None and attn_mask.dtype == torch.bool:\n"
     "        scores = scores.masked_fill(~attn_mask, float(\"-inf\"))  # removed pairs first\n"
     "    scores = scores * scale\n"
     "    if attn_mask is not None and attn_mask.dtype != torch.bool:\n"
     "        scores = scores + attn_mask\n"))}
EXPECT = {"sdpa": "fail"}
