"""Held-out round 20: to bring a tensor back with its own strides, pack_compressed keeps an
`torch.empty_like(t)` next to the bfloat16 copy, and unpack_compressed copies the bfloat16 values into it. The
values, dtype, layout and device are right, but the graph now keeps a full-precision tensor per saved tensor
(more bytes than without the hooks). The text: "what it returns holds no tensor other than the bfloat16 copy
(no reference to `t` or to another full-precision copy)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)\n",
     "        return (t.to(torch.bfloat16), {\"into\": torch.empty_like(t)})\n"),
    ("    return data if dtype is None else data.to(dtype)\n",
     "    return data if dtype is None else dtype[\"into\"].copy_(data)\n"))}
