"""Known-wrong MultiHeadAttention (round 19s, a boolean attn_mask x the device): a boolean attn_mask is turned into
its float form with torch.zeros(attn_mask.shape, dtype=...) made without device=, so on a GPU the float mask sits
on the CPU and the layer raises. Float masks and key_padding_mask of either kind are right on any device, where
the text says every tensor forward creates (masks) is on the inputs' device."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n",
     "            if attn_mask.dtype == torch.bool:  # the float form: -inf where a pair is not allowed\n"
     "                attn_mask = torch.zeros(attn_mask.shape, dtype=q.dtype).masked_fill(attn_mask, float(\"-inf\"))\n"
     "            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n"))}
EXPECT = {"mha": "fail"}
