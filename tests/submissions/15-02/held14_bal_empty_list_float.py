"""Wrong: "`targets` is a 1-D tensor of non-negative integer labels or a list of such ints". This version
turns a list into a tensor with `torch.tensor(targets)`: an empty list becomes an empty *float32* tensor
and `torch.bincount` raises, although an empty list is a list of such ints (N = 0: an empty float tensor of
shape (0,), as for an empty targets tensor)."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    targets = torch.as_tensor(targets, dtype=torch.int64)\n"
     "    counts = torch.bincount(targets)\n"
     "    return 1.0 / counts[targets].double()\n",
     "    t = torch.tensor(targets) if isinstance(targets, list) else targets\n"
     "    counts = torch.bincount(t)\n"
     "    return 1.0 / counts[t.long()].double()\n"))}
