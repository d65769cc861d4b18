"""Unusual but correct (held-out round 17): zero1_step hands its shard to PyTorch's own functional AdamW
(torch.optim.adamw's adamw, the single-tensor path torch.optim.AdamW runs on CPU), with the step count as a 0-d
tensor on the parameters' device and the moments of the shard in state; each call passes its own lr and betas."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)\n",
    "    if not state:\n"
    "        state[\"step\"] = torch.zeros((), dtype=torch.float32, device=shard.device)\n"
    "        state[\"exp_avg\"], state[\"exp_avg_sq\"] = torch.zeros_like(shard), torch.zeros_like(shard)\n"
    "    from torch.optim.adamw import adamw  # the functional form of torch.optim.AdamW\n"
    "    adamw([shard], [g], [state[\"exp_avg\"]], [state[\"exp_avg_sq\"]], [], [state[\"step\"]],\n"
    "          foreach=False, amsgrad=False, beta1=betas[0], beta2=betas[1], lr=lr,\n"
    "          weight_decay=weight_decay, eps=eps, maximize=False)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
