"""Held-out round 12 (issue 39): trace_activations computes "finite" with one reduction,
torch.isfinite(out.sum()). It is right for inf and nan, but a layer whose values are all finite and
large (float32 values near 1e38) sums to inf and is reported as not finite. Breaks: '"finite" (True if
every output value is finite)'."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
                              ('"finite": bool(torch.isfinite(out).all())',
                               '"finite": bool(torch.isfinite(out.sum()))'))}
EXPECT = {"trace": "fail"}
