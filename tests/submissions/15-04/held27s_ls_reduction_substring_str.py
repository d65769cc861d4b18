"""Held-out round 27, supplement: `held27_ls_reduction_substring` was rejected only through reduction=None (the
substring test `None in "mean sum none"` raises TypeError, not ValueError). With a type guard first,
`if not isinstance(reduction, str) or reduction not in "mean sum none"`, None raises ValueError and only a
string that is part of "mean sum none" (such as "me", "" or "sum none") slips through, as the per-sample losses.
The text: "Raises ValueError for smoothing outside [0, 1] or an unknown reduction"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ('    if reduction not in ("mean", "sum", "none"):\n',
     '    if not isinstance(reduction, str) or reduction not in "mean sum none":   # one membership test\n'))}
