"""Writes its own AdamW update with moments made by torch.zeros(k): float32 whatever the parameters'
dtype, so float64 runs keep their moments rounded to float32. Breaks: "every rank's `params` equal
single-process `torch.optim.AdamW` on the mean gradient" (AdamW keeps float64 moments for float64
parameters) and "Make every tensor you create on the parameters' device" (dtype follows the same rule)."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edit("zero2_impl", (
    "        _adamw_shard(p_shard, g_shard, state, lr, betas, eps, weight_decay)\n",
    "        if not state:\n"
    '            state["step"] = 0\n'
    '            state["m"] = torch.zeros(k, device=p_shard.device)\n'
    '            state["v"] = torch.zeros(k, device=p_shard.device)\n'
    '        state["step"] += 1\n'
    '        t, (b1, b2) = state["step"], betas\n'
    '        state["m"].mul_(b1).add_(g_shard, alpha=1 - b1)\n'
    '        state["v"].mul_(b2).addcmul_(g_shard, g_shard, value=1 - b2)\n'
    "        p_shard.mul_(1 - lr * weight_decay)\n"
    '        denom = state["v"].sqrt() / math.sqrt(1 - b2 ** t) + eps\n'
    '        p_shard.sub_(lr / (1 - b1 ** t) * state["m"] / denom)\n'))}
