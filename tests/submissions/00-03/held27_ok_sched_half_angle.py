"""Held-out round 27, correct answer written unusually: the cosine part as 1 - sin(pi * x / 2) ** 2 (the
half-angle form of (1 + cos(pi * x)) / 2), the warm-up as a lerp from start_factor * base_lr to base_lr, and
steps past total_steps clamped to total_steps (where the half-angle form is exactly 0, so the rate is exactly
eta_min). Right on every input the text allows: rounding as the reference's (sin(pi/2) is exactly 1.0, so
total_steps gives eta_min exactly), a Python float with int arguments, base_lr 0, eta_min above
start_factor * base_lr. EXPECT: all pass."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"schedule_impl": edited(
    "00-03", "schedule_impl",
    ("    if step < warmup_steps:\n"
     "        return base_lr * (start_factor + (1.0 - start_factor) * step / warmup_steps)\n"
     "    if step > total_steps:\n"
     "        return float(eta_min)\n"
     "    progress = (step - warmup_steps) / (total_steps - warmup_steps)\n"
     "    return eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0\n",
     "    if step < warmup_steps:\n"
     "        low = base_lr * start_factor\n"
     "        return low + (base_lr - low) * (step / warmup_steps)\n"
     "    t = min(step, total_steps)\n"
     "    half = math.pi * (t - warmup_steps) / (total_steps - warmup_steps) / 2.0\n"
     "    return eta_min + (base_lr - eta_min) * (1.0 - math.sin(half) ** 2)\n"))}
