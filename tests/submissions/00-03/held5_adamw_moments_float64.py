"""Held-out gap-hunting round 5 (issue 39): breaks "the two moments as tensors of p's shape, dtype and device".
exp_avg and exp_avg_sq are kept in float64 whatever the parameter's dtype ("for accuracy"), so a float32 (or
bfloat16) parameter gets float64 state and steps that differ from torch.optim.AdamW's float32 arithmetic; for
float64 parameters nothing changes."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edit("adamw_impl", (
    '''                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)''',
    '''                    state["exp_avg"] = torch.zeros_like(p, dtype=torch.float64)
                    state["exp_avg_sq"] = torch.zeros_like(p, dtype=torch.float64)'''))}
