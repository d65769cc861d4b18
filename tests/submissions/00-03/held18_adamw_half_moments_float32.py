"""Held-out round 18: the mixed-precision habit of keeping optimizer state in float32: for float16 and
bfloat16 parameters exp_avg and exp_avg_sq are created as float32 (other dtypes keep p's dtype). Breaks
"self.state[p] holds ... (the two moments as tensors of p's shape, dtype and device ...)" and the equality
with torch.optim.AdamW, which keeps them in p's dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                    state[\"exp_avg\"] = torch.zeros_like(p)\n"
     "                    state[\"exp_avg_sq\"] = torch.zeros_like(p)\n",
     "                    wide = torch.float32 if p.dtype in (torch.float16, torch.bfloat16) else p.dtype\n"
     "                    state[\"exp_avg\"] = torch.zeros_like(p, dtype=wide)\n"
     "                    state[\"exp_avg_sq\"] = torch.zeros_like(p, dtype=wide)\n"))}
