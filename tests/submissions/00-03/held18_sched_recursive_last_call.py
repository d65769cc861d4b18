"""Held-out round 18: the cosine part copies CosineAnnealingLR's recursive update: when the previous call was
for step - 1, the rate is computed from the rate that call returned (kept in a module-level dict), else from
the closed form. Called in order for one schedule it agrees with SequentialLR to rounding, but a call for
another schedule (other base_lr, eta_min, warmup_steps or total_steps) that follows step - 1 of the first one
starts from the wrong rate. Breaks "returns the learning rate (a Python float) for step number step >= 0, by
the formula above" (a function of its arguments alone)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "pass"}
CELLS = {"schedule_impl": edited(
    "00-03", "schedule_impl",
    ("def warmup_cosine_lr(", "_last = {}\n\n\ndef warmup_cosine_lr("),
    ("    progress = (step - warmup_steps) / (total_steps - warmup_steps)\n"
     "    return eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0\n",
     "    t, span = step - warmup_steps, total_steps - warmup_steps\n"
     "    if t > 0 and _last.get(\"step\") == step - 1:\n"
     "        # CosineAnnealingLR's recursive update, from the rate of the previous step\n"
     "        lr = eta_min + (_last[\"lr\"] - eta_min) * (1.0 + math.cos(math.pi * t / span)) / (\n"
     "            1.0 + math.cos(math.pi * (t - 1) / span))\n"
     "    else:\n"
     "        lr = eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * t / span)) / 2.0\n"
     "    _last[\"step\"], _last[\"lr\"] = step, lr\n"
     "    return lr\n"))}
