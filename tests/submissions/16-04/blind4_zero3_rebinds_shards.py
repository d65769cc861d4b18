"""Writes AdamW functionally and stores the result with shards[i] = ..., a new tensor: the caller's list
sees it, but the shard tensors the caller holds are never updated. Breaks: "Write the new values into the
tensors of `shards` in place (same tensor objects, same memory) and return None."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edit("zero3_impl", (
    "        with torch.no_grad():\n"
    '            _adamw_shard(shards[i], g_shard, state.setdefault(f"layer{i}", {}), lr, betas, eps, weight_decay)\n',
    '        st = state.setdefault(f"layer{i}", {"step": 0, "m": torch.zeros_like(g_shard), '
    '"v": torch.zeros_like(g_shard)})\n'
    '        st["step"] += 1\n'
    '        t, (b1, b2) = st["step"], betas\n'
    '        st["m"] = b1 * st["m"] + (1 - b1) * g_shard\n'
    '        st["v"] = b2 * st["v"] + (1 - b2) * g_shard * g_shard\n'
    '        denom = st["v"].sqrt() / math.sqrt(1 - b2 ** t) + eps\n'
    '        shards[i] = shards[i] * (1 - lr * weight_decay) - lr / (1 - b1 ** t) * st["m"] / denom\n'))}
