"""Known-wrong pipeline_grads (held-out round 24): it switches autograd's anomaly detection on
(torch.autograd.set_detect_anomaly(True), a debugging aid for the micro-batch backwards) and never switches it off.
The text says "return None, leaving the grad mode and the process's other global settings as you found them".
Input on which it goes wrong: any call: afterwards torch.is_anomaly_enabled() is True on both ranks, although it was
False before."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "    rank = dist.get_rank()\n",
    "    rank = dist.get_rank()\n"
    "    torch.autograd.set_detect_anomaly(True)  # name the op whose backward fails, if one does\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
