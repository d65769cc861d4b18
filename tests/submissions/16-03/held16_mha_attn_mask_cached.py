"""Known-wrong MultiHeadAttention (round 16): the additive version of attn_mask is computed once and kept
on the module, keyed by the mask's shape and dtype ("the same mask every step"): a second forward with
another attn_mask of the same shape uses the first one (the masks are each call's arguments)."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited("16-03", "mha_impl",
    ("        if attn_mask is not None:\n"
     "            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n"
     "            bias = bias.masked_fill(m, float(\"-inf\")) if m.dtype == torch.bool else bias + m\n",
     "        if attn_mask is not None:\n"
     "            key_ = (tuple(attn_mask.shape), attn_mask.dtype, n)\n"
     "            if getattr(self, \"_attn_key\", None) != key_:  # the same mask every step: convert it once\n"
     "                m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n"
     "                zero = torch.zeros(m.shape, dtype=q.dtype, device=q.device)\n"
     "                self._attn_key = key_\n"
     "                self._attn_bias = zero.masked_fill(m, float(\"-inf\")) if m.dtype == torch.bool else zero + m\n"
     "            bias = bias + self._attn_bias\n"))}
EXPECT = {"mha": "fail"}
