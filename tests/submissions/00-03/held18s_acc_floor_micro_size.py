"""Held-out round 18, second pass (not counted): the micro-batch size is floor(N / micro_batches) (at least 1),
so 10 samples with micro_batches=3 run as 4 micro-batches of 3, 3, 3 and 1: each at most ceil(N / k), but more
micro-batches than asked for. The text said only "of at most ceil(N / micro_batches) samples each"; it now says
"at most micro_batches consecutive micro-batches". Breaks that clause."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    size = -(-n // micro_batches)\n", "    size = max(1, n // micro_batches)\n"))}
