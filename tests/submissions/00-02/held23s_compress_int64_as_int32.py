"""Held-out round 23, second pass (not counted): pack_compressed also halves int64 tensors (max-pooling's indices)
by storing them as int32, and unpack casts them back; the values and dtype come back exactly, but an int64 tensor
is not kept as it is. The text: "Tensors of any other dtype (integer indices, bool masks, float16) are kept as they
are"."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("    return (t, None)\n",
     "    if t.dtype == torch.int64:\n"
     "        return (t.to(torch.int32), t.dtype)\n"
     "    return (t, None)\n"))}
