"""Wrong: "Return a new tensor of `x`'s shape, dtype and device". This version makes the groups as asked but
returns `x` itself when x is empty (nothing to sum): the caller gets its own tensor back, not a new one."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    out = x.clone()\n",
     "    if x.numel() == 0:  # nothing to sum\n"
     "        return x\n"
     "    out = x.clone()\n"))}
