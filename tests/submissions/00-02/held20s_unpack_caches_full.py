"""Held-out round 20, second pass (after the count, not counted): unpack_compressed stores the restored
full-precision tensor back into the packed list ("convert once, reuse it on a second backward"). Values,
dtypes and a second backward are right, but from the first backward on, a retained graph keeps a float32
(float64) copy of every saved tensor next to the bfloat16 one. The text: "what it returns holds no tensor other
than the bfloat16 copy (no reference to `t` or to another full-precision copy)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)\n"
     "    return (t, None)\n",
     "        return [t.to(torch.bfloat16), t.dtype]\n"
     "    return [t, None]\n"),
    ("    data, dtype = packed\n"
     "    return data if dtype is None else data.to(dtype)\n",
     "    data, dtype = packed\n"
     "    if dtype is not None and len(packed) == 2:\n"
     "        packed.append(data.to(dtype))  # restored once, kept for the next backward\n"
     "    return data if dtype is None else packed[2]\n"))}
