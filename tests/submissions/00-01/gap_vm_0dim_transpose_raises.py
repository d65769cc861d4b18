"""Known-wrong view_meta (gap round): a 0-dim tensor's transpose goes through the same range check as
every other dimension, so transpose(0, 0) or (-1, 0) of a 0-dim tensor raises IndexError where PyTorch
lets it through unchanged ("Dimensions may be negative, as in PyTorch"; shape possibly empty)."""
from course.grading.class_run.submissions import edited

CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ("    if op == \"transpose\" and n == 0:  # PyTorch lets a 0-dim tensor name dimension 0 (or -1): nothing moves\n"
     "        if not all(d in (-1, 0) for d in args[:2]):\n"
     "            raise IndexError(f\"dimension out of range for a 0-dim tensor: {args[:2]}\")\n"
     "    elif op == \"transpose\":", "    if op == \"transpose\":"))}
EXPECT = {"view_meta": "fail"}
