"""Held-out round 12 (issue 39): trace_activations computes "finite" as "the fraction of finite values is
1" (torch.isfinite(out).float().mean() == 1). For an empty batch that fraction is nan, so every record
says finite=False, although an empty output has no value that is not finite. Breaks: '"finite" (True if
every output value is finite)' (vacuously True for an empty output, as torch.isfinite(out).all() is)."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
                              ('"finite": bool(torch.isfinite(out).all())',
                               '"finite": bool(torch.isfinite(out).float().mean() == 1)'))}
EXPECT = {"trace": "fail"}
