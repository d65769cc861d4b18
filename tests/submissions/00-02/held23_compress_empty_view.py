"""Held-out round 23: pack_compressed keeps, next to the bfloat16 copy, an empty slice `t.flatten()[:0]` as a
template for the dtype to restore. It holds no elements, but for a contiguous `t` it is a view: it keeps `t`'s
whole full-precision storage alive for as long as the graph lives. The text: "what it returns holds no tensor
other than the bfloat16 copy (no reference to `t` or to another full-precision copy)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)\n",
     "        return (t.to(torch.bfloat16), t.flatten()[:0])\n"),
    ("    data, dtype = packed\n"
     "    return data if dtype is None else data.to(dtype)\n",
     "    data, like = packed\n"
     "    return data if like is None else data.to(like.dtype)\n"))}
