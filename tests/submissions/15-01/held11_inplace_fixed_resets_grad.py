"""Wrong: "run_fixed(x): compute the same value exp(x) + 1 ..., call backward on its sum, and return
x.grad". This version sets x.grad = None before calling backward, so on a leaf that already holds a
gradient (accumulated from an earlier backward) it throws the caller's gradient away and returns exp(x)
where backward would have accumulated into x.grad and returned the old gradient + exp(x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"inplace": "fail"}
CELLS = {"inplace_impl": edited(
    "15-01", "inplace_impl",
    ("    y = torch.exp(x) + 1\n", "    x.grad = None\n    y = torch.exp(x) + 1\n"))}
