"""Held-out round 30: divides the first moment by its bias correction as a tensor, m / (1 - beta1**t), in the
parameter's dtype, then addcdiv_ with value -lr (v-hat is handled as the text asks). Breaks "a float16 parameter
must follow it to float16 rounding" (and "equals what torch.optim.AdamW gives"): a float16 parameter (1.0) with
gradient 65504 at two steps, lr 0.01, betas (0.99, 0.999999): m = 1304 after two steps, m / (1 - 0.99**2) rounds
past 65504 to inf in float16 and the weight becomes -inf; torch (addcdiv_ with value -lr / (1 - beta1**t),
computed in float32) gives 0.98046875. Right for float32 and float64 parameters and for float16 gradients below
about 6.5e4."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))\n",
     "                p.addcdiv_(m / (1 - b1 ** t), denom, value=-lr)\n"))}
