"""Known-wrong scaled_dot_product_attention (round 23): the causal triangle is memoised in a module-level
dict keyed by (L, S) only. The first mask of each shape is built on the inputs' device, so a single device
works; a later call of the same shape on another device (the CPU first, then a GPU) gets the first device's
mask and fails, where the text says every tensor the function creates is on the inputs' device."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n",
     "        if (L, S) not in _CAUSAL:\n"
     "            _CAUSAL[(L, S)] = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n"
     "        attn_mask = _CAUSAL[(L, S)]\n"),
    ("def scaled_dot_product_attention(", "_CAUSAL = {}\n\n\ndef scaled_dot_product_attention("))}
EXPECT = {"sdpa": "fail"}
