"""Known-wrong EMA (gap round): walks the parameters through state_dict() (keep_vars), which lists a tied
parameter once per module that holds it, so a tied weight is averaged twice per update."""
from course.grading.class_run.submissions import edited

CELLS = {"ema_impl": edited("15-04", "ema_impl",
    ("            for ema_p, p in zip(self.module.parameters(), model.parameters()):",
     "            mine = self.module.state_dict(keep_vars=True)\n"
     "            live = model.state_dict(keep_vars=True)\n"
     "            pairs = [(mine[k], live[k]) for k in mine if isinstance(mine[k], nn.Parameter)]\n"
     "            for ema_p, p in pairs:"))}
EXPECT = {"ema": "fail"}
