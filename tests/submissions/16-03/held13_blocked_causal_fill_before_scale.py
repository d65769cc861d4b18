# The causal -inf goes into q @ k^T before the scale: fine for a positive scale, but scale=0 turns the
# removed pairs into NaN and a negative scale into +inf ("returns what F.scaled_dot_product_attention(q, k,
# v, is_causal=is_causal, scale=scale) returns"; "Causal masking is PyTorch's").
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    "        s = (q @ k[..., start:stop, :].transpose(-2, -1)) * scale\n"
    "        if is_causal:\n"
    "            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))\n",
    "        s = q @ k[..., start:stop, :].transpose(-2, -1)\n"
    "        if is_causal:\n"
    "            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))\n"
    "        s = s * scale\n"))}
