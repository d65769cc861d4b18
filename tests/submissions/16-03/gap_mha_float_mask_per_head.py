"""Gap round (issue 39), "attn_mask (L, S) or (N * H, L, S) ... boolean or float": only a boolean per-head mask is
reshaped to (N, H, L, S); a float (N * H, L, S) mask is added as it is and does not broadcast."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)",
    "m = attn_mask if attn_mask.dim() == 2 or attn_mask.is_floating_point() else attn_mask.reshape(n, h, L, S)"))}
