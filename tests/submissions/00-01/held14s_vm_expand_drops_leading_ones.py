"""Round 14s: expand accepts fewer sizes than dimensions when the dimensions left out are all of size 1 ("they
broadcast anyway") and drops them, so (1, 4).expand(4) gives (4,). The text: "Raise RuntimeError where
PyTorch's ... expand does: ... an expand that ... has fewer sizes than dimensions" (the old check had one such
case, (3, 4).expand(4), whose left-out size is 3)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    "if extra < 0:", "if extra < 0 and any(s != 1 for s in shape[:-extra]):"))}
