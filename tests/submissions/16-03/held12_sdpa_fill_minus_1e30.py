"""Known-wrong scaled_dot_product_attention (round 12): excluded pairs of a boolean (or causal) mask get
-1e30 instead of -inf (rows with no key left are found from the mask, so they still give zeros). For a
float16 q, masked_fill(-1e30) raises an overflow error; the text asks for "the dtype of q" and PyTorch
handles float16."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    if attn_mask is not None:\n        if attn_mask.dtype == torch.bool:\n"
     "            scores = scores.masked_fill(~attn_mask, float(\"-inf\"))",
     "    no_key = False\n    if attn_mask is not None:\n        if attn_mask.dtype == torch.bool:\n"
     "            scores = scores.masked_fill(~attn_mask, -1e30)  # a very negative score instead of -inf\n"
     "            no_key = ~attn_mask.any(dim=-1, keepdim=True)"),
    ("dead = torch.isneginf(scores).all(dim=-1, keepdim=True)",
     "dead = torch.isneginf(scores).all(dim=-1, keepdim=True) | no_key"))}
EXPECT = {"sdpa": "fail"}
