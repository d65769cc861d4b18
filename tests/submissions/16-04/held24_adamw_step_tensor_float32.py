"""Known-wrong AdamW shard step (held-out round 24), used by zero1_step, zero2_step and zero3_step: the step count
is kept, as torch.optim does, as a 0-d tensor (on the parameters' device, but in the default dtype float32), and the
bias corrections 1 - beta1**t and 1 - beta2**t are computed from that tensor, in float32. torch.optim.AdamW takes
the step's value as a Python number and computes them in double precision. The text says "every rank's params hold
exactly what one step of torch.optim.AdamW ... gives" (float32 or float64 parameters). Input on which it goes wrong:
any float64 run: at step 2, 1 - 0.999**2 is 0.0019989609... in float32 instead of 0.001999, a relative error of
2e-5 in every update."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "        state[\"step\"] = 0\n",
    "        state[\"step\"] = torch.zeros((), device=p.device)  # a tensor, as torch.optim keeps it\n"), (
    "    denom = (v.sqrt() / math.sqrt(1 - b2 ** t)).add_(eps)\n",
    "    denom = (v.sqrt() / (1 - b2 ** t).sqrt()).add_(eps)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'fail', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
