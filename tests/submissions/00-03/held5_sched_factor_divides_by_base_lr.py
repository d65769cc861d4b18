"""Held-out gap-hunting round 5 (issue 39): breaks "You may assume ... 0 <= eta_min <= base_lr", which admits
base_lr = 0 (with eta_min = 0). The cosine part is written as a LambdaLR-style factor of base_lr, with
eta_min / base_lr as its floor, so base_lr = 0 raises ZeroDivisionError from the warm-up's end on, where
SequentialLR simply gives 0.0."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edit("schedule_impl", (
    "    return float(eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0)",
    "    floor = eta_min / base_lr\n"
    "    return float(base_lr * (floor + (1.0 - floor) * (1.0 + math.cos(math.pi * progress)) / 2.0))"))}
