"""Wrong: "Use point-to-point messages only ...: no collective (`all_reduce`, `all_gather`, `broadcast`,
...)." On two ranks this version calls gloo's own `dist.all_reduce` on a copy ("with two ranks the ring is
one exchange anyway"); on three or more ranks it runs the ring."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    if world == 2:  # two ranks: a single exchange, gloo does it just as well\n"
     "        out = x.clone()\n"
     "        dist.all_reduce(out)\n"
     "        return out\n"
     "    flat = x.reshape(-1).clone()\n"))}
