"""Wrong: "key_padding_mask, shape (N, S): True marks a key to ignore" and "attn_mask ... True marks a pair
that is not allowed". To hand its boolean masks to an attention that wants True = takes part, this layer
flips them with logical_not_(), in place: the output is right, but the caller's masks come back inverted,
so the next layer (or the next call) with the same mask attends to exactly the padding."""
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("            bias = bias.masked_fill(m, float(\"-inf\")) if m.dtype == torch.bool else bias + m\n"
     "        if key_padding_mask is not None:",
     "            bias = bias.masked_fill(~m.logical_not_(), float(\"-inf\")) if m.dtype == torch.bool else bias + m\n"
     "        if key_padding_mask is not None:"),
    ("            m = key_padding_mask[:, None, None, :]\n"
     "            bias = bias.masked_fill(m, float(\"-inf\")) if m.dtype == torch.bool else bias + m\n",
     "            m = key_padding_mask[:, None, None, :]\n"
     "            bias = bias.masked_fill(~m.logical_not_(), float(\"-inf\")) if m.dtype == torch.bool else bias + m\n"))}
