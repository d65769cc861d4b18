"""Held-out round 29: reduction="sum" is computed as `loss.mean() * N` (the mean times the batch size)
instead of summing. On an empty batch (logits (0, C), target (0,)) with reduction="sum" it returns nan,
where F.cross_entropy(..., reduction="sum", label_smoothing=eps) returns 0. The text: "It must agree with
`F.cross_entropy(..., label_smoothing=...)` for every `smoothing` in `[0, 1]` and every reduction"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("        return loss.sum()\n", "        return loss.mean() * loss.shape[0]\n"))}
