"""Held-out round 28: weights each micro-loss as `loss * n_j / N` (left to right: loss * n_j first, in the
model's dtype) and returns the sum of those weighted values. Breaks "Return the full batch's loss as a Python
float" (to float rounding) for a float16 model: goes wrong on a float16 nn.Linear with 8 samples in 2
micro-batches whose micro-loss is about 2e4: loss * 4 overflows float16's 65504 to inf, so the function returns
inf where the full batch's loss is about 2e4 (the gradients themselves stay right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("        weight = xb.shape[0] / n\n"
     "        (loss * weight).backward()\n"
     "        total += loss.item() * weight\n",
     "        weighted = loss * xb.shape[0] / n\n"
     "        weighted.backward()\n"
     "        total += weighted.item()\n"))}
