"""Held-out round 27: the inf-norm branch is chosen with `math.isinf(norm_type)`, so norm_type=-inf (a
number; vector_norm's smallest absolute entry, which clip_grad_norm_ uses) also takes the largest absolute
entry. With gradients [1, -0.5, 2] and [3, 4] and max_norm 0.1 clip_grad_norm_ returns 0.5 and scales by
0.2; this answer returns 4 and scales by 0.025. The text: "Same semantics as
`torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type)`: ... `norm_type` a number or the string
'inf'"; only `norm_type=float("inf")` means the largest absolute entry."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    if norm_type == math.inf:\n", "    if math.isinf(norm_type):   # the inf-norm: the largest absolute entry\n"))}
