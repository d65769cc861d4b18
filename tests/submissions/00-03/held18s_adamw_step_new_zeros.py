"""Held-out round 18, second pass (not counted): "step" is kept as a 0-dim tensor made with p.new_zeros(()),
which inherits p's dtype: for a bfloat16 parameter the count stops at 256 (256 + 1 rounds back to 256 in
bfloat16), so from step 257 on the bias correction uses the wrong t. Breaks "self.state[p] holds ... "step"
with the values torch.optim.AdamW keeps"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                    state[\"step\"] = 0\n", "                    state[\"step\"] = p.new_zeros(())\n"),
    ("                t = int(state[\"step\"]) + 1\n                state[\"step\"] = t\n",
     "                state[\"step\"] += 1\n                t = int(state[\"step\"])\n"))}
