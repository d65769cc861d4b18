"""Known-wrong smooth_clip whose output is always row-major, which hides it by changing its input (issue 38, "a
student's file is data"): for a non-contiguous x it re-points x, in place, at a row-major copy of itself (same
values, new strides), so the input metadata the probe reads after the call is row-major too. The judge took
the strides torch.empty_like(x) gives from that report; it now lays x out itself."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_impl": edited(
    "16-01", "clip_impl",
    ("    return limit * torch.tanh(x / limit)\n",
     "    out = (limit * torch.tanh(x / limit)).contiguous()\n"
     "    if not x.is_contiguous():\n"
     "        x.set_(x.contiguous())  # the caller now sees a row-major x, like the output\n"
     "    return out\n"))}
EXPECT = {"clip_op": "fail"}
