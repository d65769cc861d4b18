"""Held-out round 9: when both masks are given and they are not both boolean, they are added as they are, so a
boolean attn_mask next to a float key_padding_mask (or the other way round) adds 1.0 to the pairs it should remove.
The text says the masks are boolean or float, alone or together (then both apply), in nn.MultiheadAttention's
conventions; PreNormBlock passes src_mask and src_key_padding_mask on, so it inherits the mistake."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "fail", "block": "fail", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("        if attn_mask is not None:\n",
     "        if attn_mask is not None and key_padding_mask is not None and \\\n"
     "                (attn_mask.dtype != torch.bool or key_padding_mask.dtype != torch.bool):\n"
     "            am = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n"
     "            bias = bias + am + key_padding_mask[:, None, None, :]  # two float masks: add them\n"
     "            attn_mask = key_padding_mask = None\n"
     "        if attn_mask is not None:\n"))}
