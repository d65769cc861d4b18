"""Wrong: "Return a new tensor of `x`'s shape, dtype and device". This version all-reduces float16 and
bfloat16 in float32 ("gloo sums halves inexactly") and forgets to cast back: for a half x the sum comes back
as float32."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    out = x.clone()\n",
     "    out = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x.clone()\n"))}
