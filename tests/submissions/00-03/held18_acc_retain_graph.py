"""Held-out round 18: every micro-batch's weighted loss is backpropagated with retain_graph=True (a habit
picked up from "Trying to backward through the graph a second time"), so the previous micro-batch's graph and
its saved activations stay alive while the next micro-batch's forward runs. The gradients and the loss are
right. Breaks "(so that only one micro-batch's graph is alive at a time)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("        (loss * weight).backward()\n", "        (loss * weight).backward(retain_graph=True)\n"))}
