"""Known-wrong MultiHeadAttention (round 23): the zero score bias is made once per shape and kept on the
module, and the masks are written into it in place (masked_fill_, add_). The first call is right; a later
call of the same shape sees the masks of every earlier call, so a call without masks after one with a
key_padding_mask still ignores those keys (state kept across calls; the text: forward returns what
nn.MultiheadAttention returns for the masks it is given)."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("        bias = torch.zeros(n, h, L, S, dtype=q.dtype, device=q.device)\n",
     "        key_ = (n, h, L, S, q.dtype, q.device)\n"
     "        if getattr(self, '_bias_key', None) != key_:\n"
     "            self._bias_key, self._bias = key_, torch.zeros(n, h, L, S, dtype=q.dtype, device=q.device)\n"
     "        bias = self._bias\n"),
    ("            bias = bias.masked_fill(m, float(\"-inf\")) if m.dtype == torch.bool else bias + m\n"
     "        if key_padding_mask",
     "            bias.masked_fill_(m, float(\"-inf\")) if m.dtype == torch.bool else bias.add_(m)\n"
     "        if key_padding_mask"),
    ("            m = key_padding_mask[:, None, None, :]\n"
     "            bias = bias.masked_fill(m, float(\"-inf\")) if m.dtype == torch.bool else bias + m\n",
     "            m = key_padding_mask[:, None, None, :]\n"
     "            bias.masked_fill_(m, float(\"-inf\")) if m.dtype == torch.bool else bias.add_(m)\n"))}
EXPECT = {"mha": "fail"}
