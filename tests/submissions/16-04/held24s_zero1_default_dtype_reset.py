"""Known-wrong AdamW shard step (held-out round 24, second pass, not counted), used by zero1_step, zero2_step and
zero3_step: the moments are made in the parameters' dtype by switching the default dtype
(torch.set_default_dtype(p.dtype)) and then "restoring" it to torch.float32, PyTorch's default, not to what the
caller had. The texts say zero1_step writes "under torch.no_grad(), a context that gives the caller back its grad
mode" and zero3_step leaves "the grad mode and the process's other global settings as you found them". Input on which
it goes wrong: a first call (empty state) made with float64 as the process's default dtype: afterwards the default
dtype is float32."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "        state[\"exp_avg\"] = torch.zeros_like(p)\n"
    "        state[\"exp_avg_sq\"] = torch.zeros_like(p)\n",
    "        torch.set_default_dtype(p.dtype)  # the moments in the parameters' dtype\n"
    "        state[\"exp_avg\"] = torch.zeros(p.shape, device=p.device)\n"
    "        state[\"exp_avg_sq\"] = torch.zeros(p.shape, device=p.device)\n"
    "        torch.set_default_dtype(torch.float32)  # back to PyTorch's default\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'fail', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
