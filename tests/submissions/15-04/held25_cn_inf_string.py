"""Held-out round 25: norm_type is compared with math.inf as given, without float(norm_type), so the string
'inf' (which torch.nn.utils.clip_grad_norm_ accepts: "norm_type (float or str) ... Can be 'inf' for
infinity norm", and converts with float()) reaches torch.linalg.vector_norm and raises instead of giving
the max-abs norm. The text: "Same semantics as `torch.nn.utils.clip_grad_norm_(parameters, max_norm,
norm_type)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    norm_type = float(norm_type)\n", ""))}
