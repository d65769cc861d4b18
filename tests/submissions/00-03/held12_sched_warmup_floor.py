"""Round 12 (held out): "the rate never falls below eta_min" applied to the warm-up too: the warm-up rate is
max(eta_min, base_lr * (start_factor + ...)). The formula's warm-up does not involve eta_min, and LinearLR
starts at start_factor * base_lr even when that is below eta_min."""
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edited("00-03", "schedule_impl", (
    "        return base_lr * (start_factor + (1.0 - start_factor) * step / warmup_steps)\n",
    "        return max(eta_min, base_lr * (start_factor + (1.0 - start_factor) * step / warmup_steps))\n"))}
