"""Wrong (second pass, not counted): "Use point-to-point messages only ...: no collective (`all_reduce`,
`all_gather`, `broadcast`, ...)." For x of at most one element (a 0-d x, a (1, 1) x, an empty one) this version
calls gloo's `dist.all_reduce` on a copy ("one element is no ring"); longer tensors go round the ring."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    if x.numel() <= 1:  # one element: nothing to cut into chunks\n"
     "        out = x.clone()\n"
     "        dist.all_reduce(out)\n"
     "        return out\n"
     "    flat = x.reshape(-1).clone()\n"))}
