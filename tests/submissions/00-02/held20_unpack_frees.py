"""Held-out round 20: pack_compressed returns a list and unpack_compressed empties it to free the bfloat16
copy as soon as it has been restored ("backward needs it once"). A second backward through the same graph
(`retain_graph=True`, or `torch.autograd.grad` twice) unpacks the same saved tensor again and fails. The text:
"`unpack_compressed(packed)` returns a tensor with the original shape, dtype and device, equal to `t` up to
bfloat16 rounding" and "Gradients computed through it stay within 2 %"."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)\n"
     "    return (t, None)\n",
     "        return [t.to(torch.bfloat16), t.dtype]\n"
     "    return [t, None]\n"),
    ("    data, dtype = packed\n",
     "    data, dtype = packed\n"
     "    packed[0] = None  # restored: let the bfloat16 copy go\n"))}
