"""Known-wrong scaled_dot_product_attention (round 16): the causal mask is built once per (L, S) and kept in
a module-level dict, on the device of the first call: a later call on another device (a GPU) gets a mask
on the first call's device (the text: every tensor it creates is on the inputs' device)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl",
    ("def scaled_dot_product_attention(", "_CAUSAL_MASKS = {}  # (L, S) -> the causal mask, built once\n\n\n"
                                          "def scaled_dot_product_attention("),
    ("        attn_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()",
     "        if (L, S) not in _CAUSAL_MASKS:\n"
     "            _CAUSAL_MASKS[(L, S)] = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()\n"
     "        attn_mask = _CAUSAL_MASKS[(L, S)]"))}
EXPECT = {"sdpa": "fail"}
