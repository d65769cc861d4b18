"""Three realistic mistakes in three tasks; MomentumSGD and ScratchAdamW are the reference.

- accumulate: every micro-batch loss weighted 1/k;
- schedule: no hold at eta_min past total_steps;
- collate: labels stacked in their own dtype.
"""
import runpy
from pathlib import Path

_here = Path(__file__).with_name
_c = runpy.run_path(str(_here("_common.py")))
EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "fail"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {**runpy.run_path(str(_here("accum_divides_by_k.py")))["CELLS"],
         **runpy.run_path(str(_here("schedule_no_hold.py")))["CELLS"],
         **runpy.run_path(str(_here("collate_stack_labels.py")))["CELLS"]}
