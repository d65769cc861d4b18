"""Known-wrong MultiHeadAttention (round 29): a boolean per-head attn_mask (N * H, L, S) is turned into an
additive mask through torch.zeros(...) made without device= (on the CPU). The 2-D masks, the key padding
mask and float per-head masks stay on the inputs' device; on the CPU every value is right. The text:
"Every tensor forward creates (masks, zero biases) is on the inputs' device, so the layer runs on a GPU too"
(goes wrong on another device with a boolean attn_mask of shape (N * H, L, S))."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n",
     "            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n"
     "            if m.dtype == torch.bool and m.dim() == 4:  # per-head boolean: as an additive mask\n"
     "                m = torch.zeros(m.shape, dtype=bias.dtype).masked_fill(m, float(\"-inf\"))\n"))}
EXPECT = {"mha": "fail"}
