"""Held-out round 30: caches the warm-up line (intercept and slope) in a module-level dict keyed by
(base_lr, warmup_steps) only. Breaks "returns the learning rate for step ... by the formula above" across calls:
warmup_cosine_lr(1, 0.1, 10, 100, start_factor=0.1) followed by warmup_cosine_lr(1, 0.1, 10, 100,
start_factor=0.5) returns the first schedule's 0.019 instead of 0.055. Right for every first call with a given
(base_lr, warmup_steps), and for the whole cosine part."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "pass"}
CELLS = {"schedule_impl": edited(
    "00-03", "schedule_impl",
    ("    if step < warmup_steps:\n"
     "        return base_lr * (start_factor + (1.0 - start_factor) * step / warmup_steps)\n",
     "    if step < warmup_steps:\n"
     "        key = (base_lr, warmup_steps)\n"
     "        if key not in _WARMUP_LINES:\n"
     "            _WARMUP_LINES[key] = (start_factor, 1.0 - start_factor)\n"
     "        a, b = _WARMUP_LINES[key]\n"
     "        return base_lr * (a + b * step / warmup_steps)\n"))}
CELLS["schedule_impl"] = "_WARMUP_LINES = {}\n\n\n" + CELLS["schedule_impl"]
