"""Wrong: Clamp's forward turns NaN inputs into 0 (torch.nan_to_num before clamping), where torch.clamp keeps NaN;
its gradient (no flow through NaN) is right ("matching torch.clamp(x, lo, hi) in value")."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl",
                              ("        return x.clamp(lo, hi)", "        return torch.nan_to_num(x, nan=0.0).clamp(lo, hi)"))}
