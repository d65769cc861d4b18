"""Wrong: "any shape (... fewer elements than ranks)" together with "Use point-to-point messages only ...
no collective (`all_reduce`, ...)". This version treats a tensor with fewer elements than ranks as a
degenerate case and hands it to `dist.all_reduce` (the ring would send empty chunks)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    if x.numel() < world:  # some chunks would be empty: not worth a ring\n"
     "        out = x.clone().contiguous()\n"
     "        dist.all_reduce(out)\n"
     "        return out\n"
     "    flat = x.reshape(-1).clone()\n"))}
