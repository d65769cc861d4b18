"""Round 26 (held out): attach_grad_clipping's hook skips every non-finite norm (torch.isfinite), not only NaN.

Breaks "multiply by max_norm / norm when norm > max_norm; leave it alone otherwise, also when a NaN in the
gradient makes the norm NaN". Only a NaN norm is left alone: an inf norm is > max_norm, so the rule multiplies
by max_norm / inf = 0. Goes wrong for a gradient holding an inf entry (e.g. [inf, 1., 2.] with max_norm 1):
the rule gives [nan, 0., 0.] (inf * 0 and 0), this hook leaves [inf, 1., 2.] alone, whose norm is inf,
far above max_norm. NaN gradients and all finite ones are handled as the text says."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "        if norm > max_norm:",
    "        if torch.isfinite(norm) and norm > max_norm:"))}
