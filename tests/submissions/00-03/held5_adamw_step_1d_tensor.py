"""Held-out gap-hunting round 5 (issue 39): breaks '"step" as a number or a 0-dim tensor'. The step count is
kept as a one-element 1-D tensor, torch.tensor([t]): float() of it and the update are right, but the state
holds a tensor of shape (1,) where torch.optim.AdamW keeps a 0-dim one (its step is a scalar everywhere)."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edit("adamw_impl", (
    '''                t = int(state["step"]) + 1
                state["step"] = t''',
    '''                t = int(state["step"]) + 1
                state["step"] = torch.tensor([float(t)])'''))}
